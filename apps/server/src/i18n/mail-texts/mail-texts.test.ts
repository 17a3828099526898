import { languageCodes } from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import { passwordChangedMail, passwordResetMail } from '../../modules/auth/security-mails.ts';
import { en } from './en.ts';
import { composeMail, fillText, mailTexts, mailTextsByLanguage } from './index.ts';

const variables = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort();

describe('mail texts', () => {
  it('has every text in each of the 22 languages, with the English variables, none empty or left English', () => {
    expect(Object.keys(mailTextsByLanguage).sort()).toEqual([...languageCodes].sort());
    for (const code of languageCodes) {
      const texts = mailTextsByLanguage[code];
      expect(Object.keys(texts).sort(), code).toEqual(Object.keys(en).sort());
      for (const [key, english] of Object.entries(en)) {
        const text = texts[key as keyof typeof en];
        expect(text.trim(), `${code}.${key}`).not.toBe('');
        expect(variables(text), `${code}.${key}`).toEqual(variables(english));
        if (code !== 'en') expect(text, `${code}.${key} is still English`).not.toBe(english);
      }
    }
  });

  it("picks the account's language, English for none or an unknown code", () => {
    expect(mailTexts('de').resetSubject).toBe('Setzen Sie Ihr Passwort zurück');
    expect(mailTexts(null)).toBe(en);
    expect(mailTexts(undefined)).toBe(en);
    expect(mailTexts('xx' as never)).toBe(en);
    expect(mailTexts('__proto__' as never)).toBe(en);
  });

  it('fills values once: a value that looks like a variable stays as written', () => {
    expect(fillText('Hello {{firstName}}, {{missing}}', { firstName: '{{missing}}' })).toBe(
      'Hello {{missing}}, {{missing}}',
    );
  });

  it('writes the English reset mail word for word as before', () => {
    const mail = passwordResetMail(
      { email: 'a@example.com', firstName: 'Ada', language: null },
      'https://x.test/reset-password?token=t',
      30 * 60_000,
    );
    expect(mail.subject).toBe('Reset your password');
    expect(mail.text).toBe(
      'Hello Ada,\n\nSomeone asked to reset the password of your Meridian account. To choose a new password, open this link:\n' +
        'https://x.test/reset-password?token=t\n\nThe link works once and for 30 minutes. Resetting the password signs you out ' +
        'on every device.\n\nIf you did not ask for this, ignore this mail: your password stays as it is.\n',
    );
  });

  it('escapes names, links and texts in the HTML version only', () => {
    const mail = composeMail(
      'a@example.com',
      mailTexts('es'),
      'verifySubject',
      ['greeting', { link: 'https://x.test/?a="b"&c', label: 'verifyAction' }],
      { firstName: '<script>alert(1)</script>' },
    );
    expect(mail.text).toContain('Hola, <script>alert(1)</script>:');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&#60;script&#62;');
    expect(mail.html).toContain('href="https://x.test/?a=&#34;b&#34;&#38;c"');
    const changed = passwordChangedMail({ email: 'a@example.com', language: 'fr' }, new Date(0), 'https://x.test');
    expect(changed.subject).toBe('Votre mot de passe a été modifié');
    expect(changed.text).toContain('1970-01-01 00:00 UTC');
    expect(changed.html).toContain('<a href="https://x.test">https://x.test</a>');
    expect(changed.html).toContain('n&#39;était pas vous');
  });
});
