import type { MailTexts } from './en.ts';

export const pl: MailTexts = {
  greeting: 'Dzień dobry {{firstName}},',
  verifySubject: 'Potwierdź swój adres e-mail',
  verifyIntro: 'Potwierdź swój adres e-mail w Meridian, otwierając ten link:',
  verifyAction: 'Potwierdź mój e-mail',
  verifyValidity:
    'Link jest ważny przez 24 godziny. Jeśli konto nie zostało założone przez Ciebie, zignoruj tę wiadomość.',
  existingSubject: 'Ktoś próbował założyć konto na Twój adres e-mail',
  existingAttempt:
    'Ktoś (być może Ty) właśnie próbował założyć konto Meridian na ten adres e-mail. Masz już konto, więc nic nie zostało utworzone ani zmienione.',
  existingSignIn:
    'Aby kontynuować, zaloguj się na {{publicUrl}} swoim hasłem. Jeśli go nie pamiętasz, użyj opcji "Nie pamiętasz hasła" na ekranie logowania.',
  existingIgnore: 'Jeśli to nie Ty, możesz zignorować tę wiadomość.',
  resetSubject: 'Zresetuj hasło',
  resetIntro: 'Ktoś poprosił o zresetowanie hasła do Twojego konta Meridian. Aby ustawić nowe hasło, otwórz ten link:',
  resetAction: 'Ustaw nowe hasło',
  resetValidity:
    'Link działa jeden raz i przez {{minutes}} min. Zresetowanie hasła wyloguje Cię ze wszystkich urządzeń.',
  resetIgnore: 'Jeśli prośba nie pochodzi od Ciebie, zignoruj tę wiadomość: Twoje hasło pozostanie bez zmian.',
  changedSubject: 'Twoje hasło zostało zmienione',
  changedNotice:
    'Hasło do Twojego konta Meridian zostało zmienione {{when}} UTC; wszystkie sesje zalogowane przed zmianą zostały wylogowane.',
  changedAdvice:
    'Jeśli to nie Ty, natychmiast zresetuj hasło w oknie logowania (Nie pamiętasz hasła?) na {{publicUrl}} i skontaktuj się z pomocą techniczną.',
};
