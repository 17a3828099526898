/**
 * The mails' texts in English, the source of every other language's (docs/i18n.md "Server texts").
 * {{name}} marks a value filled in when the mail is written; a translation keeps the same ones.
 */
export const en = {
  greeting: 'Hello {{firstName}},',
  verifySubject: 'Verify your email address',
  verifyIntro: 'Please confirm your email address for Meridian by opening this link:',
  verifyAction: 'Verify my email',
  verifyValidity: 'The link is valid for 24 hours. If you did not create an account, ignore this mail.',
  existingSubject: 'Someone tried to create an account with your email',
  existingAttempt:
    'Someone (perhaps you) just tried to create a Meridian account with this email address. You already have one, so nothing was created and nothing changed.',
  existingSignIn:
    'To continue, sign in at {{publicUrl}} with your password. If you do not remember it, use "Forgot password" on the sign-in screen.',
  existingIgnore: 'If it was not you, you can ignore this mail.',
  resetSubject: 'Reset your password',
  resetIntro: 'Someone asked to reset the password of your Meridian account. To choose a new password, open this link:',
  resetAction: 'Choose a new password',
  resetValidity:
    'The link works once and for {{minutes}} minutes. Resetting the password signs you out on every device.',
  resetIgnore: 'If you did not ask for this, ignore this mail: your password stays as it is.',
  changedSubject: 'Your password was changed',
  changedNotice:
    'The password of your Meridian account was changed on {{when}} UTC; every session signed in before the change was signed out.',
  changedAdvice:
    'If this was not you, reset your password at once from the sign-in window (Forgot password?) at {{publicUrl}} and contact support.',
};

export type MailTextKey = keyof typeof en;
export type MailTexts = Record<MailTextKey, string>;
