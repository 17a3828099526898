import type { MailTexts } from './en.ts';

export const ro: MailTexts = {
  greeting: 'Bună, {{firstName}},',
  verifySubject: 'Confirmă-ți adresa de e-mail',
  verifyIntro: 'Te rugăm să îți confirmi adresa de e-mail pentru Meridian deschizând acest link:',
  verifyAction: 'Confirmă adresa de e-mail',
  verifyValidity: 'Linkul este valabil 24 de ore. Dacă nu ai creat un cont, ignoră acest e-mail.',
  existingSubject: 'Cineva a încercat să creeze un cont cu adresa ta de e-mail',
  existingAttempt:
    'Cineva (poate chiar tu) tocmai a încercat să creeze un cont Meridian cu această adresă de e-mail. Ai deja un cont, așa că nu s-a creat și nu s-a modificat nimic.',
  existingSignIn:
    'Pentru a continua, conectează-te pe {{publicUrl}} cu parola ta. Dacă nu ți-o amintești, folosește „Ai uitat parola” pe ecranul de conectare.',
  existingIgnore: 'Dacă nu ai fost tu, poți ignora acest e-mail.',
  resetSubject: 'Resetează-ți parola',
  resetIntro:
    'Cineva a cerut resetarea parolei contului tău Meridian. Pentru a alege o parolă nouă, deschide acest link:',
  resetAction: 'Alege o parolă nouă',
  resetValidity:
    'Linkul funcționează o singură dată, timp de {{minutes}} de minute. Resetarea parolei te deconectează de pe toate dispozitivele.',
  resetIgnore: 'Dacă nu ai cerut acest lucru, ignoră acest e-mail: parola ta rămâne neschimbată.',
  changedSubject: 'Parola ta a fost schimbată',
  changedNotice:
    'Parola contului tău Meridian a fost schimbată pe {{when}} UTC; toate sesiunile conectate înainte de schimbare au fost deconectate.',
  changedAdvice:
    'Dacă nu ai fost tu, resetează-ți imediat parola din fereastra de conectare (Ai uitat parola?) de pe {{publicUrl}} și contactează asistența.',
};
