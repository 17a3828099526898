import type { MailTexts } from './en.ts';

export const sv: MailTexts = {
  greeting: 'Hej {{firstName}},',
  verifySubject: 'Bekräfta din e-postadress',
  verifyIntro: 'Bekräfta din e-postadress för Meridian genom att öppna den här länken:',
  verifyAction: 'Bekräfta min e-post',
  verifyValidity: 'Länken gäller i 24 timmar. Om du inte har skapat något konto kan du bortse från det här mejlet.',
  existingSubject: 'Någon försökte skapa ett konto med din e-postadress',
  existingAttempt:
    'Någon (kanske du) försökte just skapa ett Meridian-konto med den här e-postadressen. Du har redan ett, så inget skapades och inget ändrades.',
  existingSignIn:
    'Logga in på {{publicUrl}} med ditt lösenord för att fortsätta. Om du inte minns det kan du använda "Glömt lösenordet" på inloggningssidan.',
  existingIgnore: 'Om det inte var du kan du bortse från det här mejlet.',
  resetSubject: 'Återställ ditt lösenord',
  resetIntro:
    'Någon har begärt att lösenordet till ditt Meridian-konto ska återställas. Öppna den här länken för att välja ett nytt lösenord:',
  resetAction: 'Välj ett nytt lösenord',
  resetValidity:
    'Länken fungerar en gång och i {{minutes}} minuter. När lösenordet återställs loggas du ut på alla enheter.',
  resetIgnore: 'Om du inte har begärt detta kan du bortse från det här mejlet: ditt lösenord förblir oförändrat.',
  changedSubject: 'Ditt lösenord har ändrats',
  changedNotice:
    'Lösenordet till ditt Meridian-konto ändrades {{when}} UTC; alla sessioner som var inloggade före ändringen har loggats ut.',
  changedAdvice:
    'Om det inte var du, återställ genast ditt lösenord från inloggningsfönstret (Glömt lösenordet?) på {{publicUrl}} och kontakta supporten.',
};
