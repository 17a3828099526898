import type { MailTexts } from './en.ts';

export const cs: MailTexts = {
  greeting: 'Dobrý den, {{firstName}},',
  verifySubject: 'Ověřte svou e-mailovou adresu',
  verifyIntro: 'Potvrďte prosím svou e-mailovou adresu pro Meridian otevřením tohoto odkazu:',
  verifyAction: 'Ověřit můj e-mail',
  verifyValidity: 'Odkaz je platný 24 hodin. Pokud jste si účet nezaložili, tento e-mail ignorujte.',
  existingSubject: 'Někdo se pokusil založit účet s vaším e-mailem',
  existingAttempt:
    'Někdo (možná vy) se právě pokusil založit účet Meridian s touto e-mailovou adresou. Účet už máte, takže nic nebylo vytvořeno ani změněno.',
  existingSignIn:
    'Chcete-li pokračovat, přihlaste se na {{publicUrl}} svým heslem. Pokud si ho nepamatujete, použijte na přihlašovací obrazovce „Zapomenuté heslo“.',
  existingIgnore: 'Pokud jste to nebyli vy, můžete tento e-mail ignorovat.',
  resetSubject: 'Obnovte své heslo',
  resetIntro: 'Někdo požádal o obnovení hesla k vašemu účtu Meridian. Nové heslo si zvolíte otevřením tohoto odkazu:',
  resetAction: 'Zvolit nové heslo',
  resetValidity: 'Odkaz funguje jednou a po dobu {{minutes}} minut. Obnovení hesla vás odhlásí na všech zařízeních.',
  resetIgnore: 'Pokud jste o to nežádali, tento e-mail ignorujte: vaše heslo zůstane beze změny.',
  changedSubject: 'Vaše heslo bylo změněno',
  changedNotice:
    'Heslo k vašemu účtu Meridian bylo změněno {{when}} UTC; všechny relace přihlášené před změnou byly odhlášeny.',
  changedAdvice:
    'Pokud jste to nebyli vy, ihned si obnovte heslo v přihlašovacím okně (Zapomenuté heslo?) na {{publicUrl}} a kontaktujte podporu.',
};
