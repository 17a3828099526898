import type { MailTexts } from './en.ts';

export const de: MailTexts = {
  greeting: 'Hallo {{firstName}},',
  verifySubject: 'Bestätigen Sie Ihre E-Mail-Adresse',
  verifyIntro: 'Bitte bestätigen Sie Ihre E-Mail-Adresse für Meridian, indem Sie diesen Link öffnen:',
  verifyAction: 'E-Mail-Adresse bestätigen',
  verifyValidity:
    'Der Link ist 24 Stunden lang gültig. Wenn Sie kein Konto erstellt haben, ignorieren Sie diese E-Mail.',
  existingSubject: 'Jemand hat versucht, mit Ihrer E-Mail-Adresse ein Konto zu erstellen',
  existingAttempt:
    'Jemand (vielleicht Sie selbst) hat gerade versucht, mit dieser E-Mail-Adresse ein Meridian-Konto zu erstellen. Sie haben bereits eines, daher wurde nichts erstellt und nichts geändert.',
  existingSignIn:
    'Um fortzufahren, melden Sie sich unter {{publicUrl}} mit Ihrem Passwort an. Falls Sie es vergessen haben, nutzen Sie „Passwort vergessen“ auf der Anmeldeseite.',
  existingIgnore: 'Wenn Sie das nicht waren, können Sie diese E-Mail ignorieren.',
  resetSubject: 'Setzen Sie Ihr Passwort zurück',
  resetIntro:
    'Jemand hat angefordert, das Passwort Ihres Meridian-Kontos zurückzusetzen. Um ein neues Passwort zu wählen, öffnen Sie diesen Link:',
  resetAction: 'Neues Passwort wählen',
  resetValidity:
    'Der Link funktioniert einmal und {{minutes}} Minuten lang. Durch das Zurücksetzen des Passworts werden Sie auf allen Geräten abgemeldet.',
  resetIgnore: 'Wenn Sie das nicht angefordert haben, ignorieren Sie diese E-Mail: Ihr Passwort bleibt unverändert.',
  changedSubject: 'Ihr Passwort wurde geändert',
  changedNotice:
    'Das Passwort Ihres Meridian-Kontos wurde am {{when}} UTC geändert; alle Sitzungen, die vor der Änderung angemeldet waren, wurden abgemeldet.',
  changedAdvice:
    'Wenn Sie das nicht waren, setzen Sie Ihr Passwort sofort über das Anmeldefenster (Passwort vergessen?) unter {{publicUrl}} zurück und wenden Sie sich an den Support.',
};
