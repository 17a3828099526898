import type { MailTexts } from './en.ts';

export const nl: MailTexts = {
  greeting: 'Hallo {{firstName}},',
  verifySubject: 'Bevestig je e-mailadres',
  verifyIntro: 'Bevestig je e-mailadres voor Meridian door deze link te openen:',
  verifyAction: 'Mijn e-mailadres bevestigen',
  verifyValidity: 'De link is 24 uur geldig. Heb je geen account aangemaakt? Negeer dan deze e-mail.',
  existingSubject: 'Iemand heeft geprobeerd een account aan te maken met jouw e-mailadres',
  existingAttempt:
    'Iemand (misschien jij) probeerde zojuist een Meridian-account aan te maken met dit e-mailadres. Je hebt er al een, dus er is niets aangemaakt en niets gewijzigd.',
  existingSignIn:
    'Log in op {{publicUrl}} met je wachtwoord om verder te gaan. Weet je het niet meer? Gebruik dan "Wachtwoord vergeten" op het inlogscherm.',
  existingIgnore: 'Was jij dit niet? Dan kun je deze e-mail negeren.',
  resetSubject: 'Stel je wachtwoord opnieuw in',
  resetIntro:
    'Iemand heeft gevraagd het wachtwoord van je Meridian-account opnieuw in te stellen. Open deze link om een nieuw wachtwoord te kiezen:',
  resetAction: 'Nieuw wachtwoord kiezen',
  resetValidity:
    'De link werkt één keer en {{minutes}} minuten lang. Als je het wachtwoord opnieuw instelt, word je op alle apparaten uitgelogd.',
  resetIgnore: 'Heb je dit niet aangevraagd? Negeer dan deze e-mail: je wachtwoord blijft zoals het is.',
  changedSubject: 'Je wachtwoord is gewijzigd',
  changedNotice:
    'Het wachtwoord van je Meridian-account is gewijzigd op {{when}} UTC; alle sessies die vóór de wijziging waren ingelogd, zijn uitgelogd.',
  changedAdvice:
    'Was jij dit niet? Stel dan meteen een nieuw wachtwoord in via het inlogvenster (Wachtwoord vergeten?) op {{publicUrl}} en neem contact op met support.',
};
