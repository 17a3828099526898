import type { MailTexts } from './en.ts';

export const fi: MailTexts = {
  greeting: 'Hei {{firstName}},',
  verifySubject: 'Vahvista sähköpostiosoitteesi',
  verifyIntro: 'Vahvista Meridianin sähköpostiosoitteesi avaamalla tämä linkki:',
  verifyAction: 'Vahvista sähköpostini',
  verifyValidity: 'Linkki on voimassa 24 tuntia. Jos et luonut tiliä, voit jättää tämän viestin huomiotta.',
  existingSubject: 'Joku yritti luoda tilin sähköpostiosoitteellasi',
  existingAttempt:
    'Joku (ehkä sinä) yritti juuri luoda Meridian-tilin tällä sähköpostiosoitteella. Sinulla on jo tili, joten mitään ei luotu eikä mitään muutettu.',
  existingSignIn:
    'Jatka kirjautumalla osoitteessa {{publicUrl}} salasanallasi. Jos et muista sitä, valitse kirjautumisnäkymästä "Unohtuiko salasana".',
  existingIgnore: 'Jos se et ollut sinä, voit jättää tämän viestin huomiotta.',
  resetSubject: 'Nollaa salasanasi',
  resetIntro: 'Joku pyysi Meridian-tilisi salasanan nollaamista. Valitse uusi salasana avaamalla tämä linkki:',
  resetAction: 'Valitse uusi salasana',
  resetValidity:
    'Linkki toimii kerran ja {{minutes}} minuutin ajan. Salasanan nollaaminen kirjaa sinut ulos kaikilta laitteilta.',
  resetIgnore: 'Jos et pyytänyt tätä, jätä viesti huomiotta: salasanasi pysyy ennallaan.',
  changedSubject: 'Salasanasi on vaihdettu',
  changedNotice:
    'Meridian-tilisi salasana vaihdettiin {{when}} UTC; kaikki ennen vaihtoa kirjautuneet istunnot on kirjattu ulos.',
  changedAdvice:
    'Jos se et ollut sinä, nollaa salasanasi heti kirjautumisikkunasta (Unohtuiko salasana?) osoitteessa {{publicUrl}} ja ota yhteyttä tukeen.',
};
