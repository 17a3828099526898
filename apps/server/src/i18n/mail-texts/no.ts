import type { MailTexts } from './en.ts';

export const no: MailTexts = {
  greeting: 'Hei {{firstName}},',
  verifySubject: 'Bekreft e-postadressen din',
  verifyIntro: 'Bekreft e-postadressen din hos Meridian ved å åpne denne lenken:',
  verifyAction: 'Bekreft e-posten min',
  verifyValidity:
    'Lenken er gyldig i 24 timer. Hvis du ikke har opprettet en konto, kan du se bort fra denne e-posten.',
  existingSubject: 'Noen prøvde å opprette en konto med e-postadressen din',
  existingAttempt:
    'Noen (kanskje deg) prøvde akkurat å opprette en Meridian-konto med denne e-postadressen. Du har allerede en, så ingenting ble opprettet og ingenting ble endret.',
  existingSignIn:
    'For å fortsette logger du inn på {{publicUrl}} med passordet ditt. Hvis du ikke husker det, bruker du «Glemt passord» på innloggingssiden.',
  existingIgnore: 'Hvis det ikke var deg, kan du se bort fra denne e-posten.',
  resetSubject: 'Tilbakestill passordet ditt',
  resetIntro:
    'Noen har bedt om å tilbakestille passordet til Meridian-kontoen din. Åpne denne lenken for å velge et nytt passord:',
  resetAction: 'Velg et nytt passord',
  resetValidity:
    'Lenken virker én gang og i {{minutes}} minutter. Når passordet tilbakestilles, blir du logget ut på alle enheter.',
  resetIgnore: 'Hvis du ikke har bedt om dette, kan du se bort fra denne e-posten: passordet ditt forblir uendret.',
  changedSubject: 'Passordet ditt er endret',
  changedNotice:
    'Passordet til Meridian-kontoen din ble endret {{when}} UTC; alle økter som var logget inn før endringen, er logget ut.',
  changedAdvice:
    'Hvis det ikke var deg, må du straks tilbakestille passordet fra innloggingsvinduet (Glemt passord?) på {{publicUrl}} og kontakte kundestøtte.',
};
