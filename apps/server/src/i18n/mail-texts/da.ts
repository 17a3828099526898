import type { MailTexts } from './en.ts';

export const da: MailTexts = {
  greeting: 'Hej {{firstName}}',
  verifySubject: 'Bekræft din e-mailadresse',
  verifyIntro: 'Bekræft din e-mailadresse hos Meridian ved at åbne dette link:',
  verifyAction: 'Bekræft min e-mail',
  verifyValidity: 'Linket er gyldigt i 24 timer. Hvis du ikke har oprettet en konto, kan du se bort fra denne e-mail.',
  existingSubject: 'Nogen forsøgte at oprette en konto med din e-mail',
  existingAttempt:
    'Nogen (måske dig) forsøgte lige at oprette en Meridian-konto med denne e-mailadresse. Du har allerede en, så intet blev oprettet, og intet blev ændret.',
  existingSignIn:
    'For at fortsætte skal du logge ind på {{publicUrl}} med din adgangskode. Kan du ikke huske den, så brug "Glemt adgangskode" på login-siden.',
  existingIgnore: 'Hvis det ikke var dig, kan du se bort fra denne e-mail.',
  resetSubject: 'Nulstil din adgangskode',
  resetIntro:
    'Nogen har bedt om at nulstille adgangskoden til din Meridian-konto. Åbn dette link for at vælge en ny adgangskode:',
  resetAction: 'Vælg en ny adgangskode',
  resetValidity:
    'Linket virker én gang og i {{minutes}} minutter. Når adgangskoden nulstilles, bliver du logget ud på alle enheder.',
  resetIgnore: 'Hvis du ikke har bedt om dette, kan du se bort fra denne e-mail: din adgangskode forbliver uændret.',
  changedSubject: 'Din adgangskode er blevet ændret',
  changedNotice:
    'Adgangskoden til din Meridian-konto blev ændret {{when}} UTC; alle sessioner, der var logget ind før ændringen, er blevet logget ud.',
  changedAdvice:
    'Hvis det ikke var dig, så nulstil straks din adgangskode fra login-vinduet (Glemt adgangskode?) på {{publicUrl}} og kontakt support.',
};
