import type { MailTexts } from './en.ts';

export const it: MailTexts = {
  greeting: 'Ciao {{firstName}},',
  verifySubject: 'Verifica il tuo indirizzo email',
  verifyIntro: 'Conferma il tuo indirizzo email per Meridian aprendo questo link:',
  verifyAction: 'Verifica la mia email',
  verifyValidity: 'Il link è valido per 24 ore. Se non hai creato un account, ignora questa email.',
  existingSubject: 'Qualcuno ha provato a creare un account con la tua email',
  existingAttempt:
    'Qualcuno (forse tu) ha appena provato a creare un account Meridian con questo indirizzo email. Ne hai già uno, quindi non è stato creato né modificato nulla.',
  existingSignIn:
    'Per continuare, accedi su {{publicUrl}} con la tua password. Se non la ricordi, usa "Password dimenticata" nella schermata di accesso.',
  existingIgnore: 'Se non sei stato tu, puoi ignorare questa email.',
  resetSubject: 'Reimposta la tua password',
  resetIntro:
    'Qualcuno ha chiesto di reimpostare la password del tuo account Meridian. Per scegliere una nuova password, apri questo link:',
  resetAction: 'Scegli una nuova password',
  resetValidity:
    'Il link funziona una sola volta e per {{minutes}} minuti. La reimpostazione della password ti disconnette da tutti i dispositivi.',
  resetIgnore: 'Se non lo hai richiesto tu, ignora questa email: la tua password resta invariata.',
  changedSubject: 'La tua password è stata modificata',
  changedNotice:
    'La password del tuo account Meridian è stata modificata il {{when}} UTC; tutte le sessioni aperte prima della modifica sono state disconnesse.',
  changedAdvice:
    "Se non sei stato tu, reimposta subito la password dalla finestra di accesso (Password dimenticata?) su {{publicUrl}} e contatta l'assistenza.",
};
