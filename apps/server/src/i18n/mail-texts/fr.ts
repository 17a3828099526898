import type { MailTexts } from './en.ts';

export const fr: MailTexts = {
  greeting: 'Bonjour {{firstName}},',
  verifySubject: 'Vérifiez votre adresse e-mail',
  verifyIntro: 'Veuillez confirmer votre adresse e-mail pour Meridian en ouvrant ce lien :',
  verifyAction: 'Vérifier mon e-mail',
  verifyValidity: "Le lien est valable 24 heures. Si vous n'avez pas créé de compte, ignorez cet e-mail.",
  existingSubject: "Quelqu'un a essayé de créer un compte avec votre adresse e-mail",
  existingAttempt:
    "Quelqu'un (peut-être vous) vient d'essayer de créer un compte Meridian avec cette adresse e-mail. Vous en avez déjà un : rien n'a été créé ni modifié.",
  existingSignIn:
    "Pour continuer, connectez-vous sur {{publicUrl}} avec votre mot de passe. Si vous ne vous en souvenez plus, utilisez « Mot de passe oublié » sur l'écran de connexion.",
  existingIgnore: "Si ce n'était pas vous, vous pouvez ignorer cet e-mail.",
  resetSubject: 'Réinitialisez votre mot de passe',
  resetIntro:
    "Quelqu'un a demandé la réinitialisation du mot de passe de votre compte Meridian. Pour choisir un nouveau mot de passe, ouvrez ce lien :",
  resetAction: 'Choisir un nouveau mot de passe',
  resetValidity:
    'Le lien fonctionne une seule fois, pendant {{minutes}} minutes. La réinitialisation du mot de passe vous déconnecte de tous vos appareils.',
  resetIgnore:
    "Si vous n'êtes pas à l'origine de cette demande, ignorez cet e-mail : votre mot de passe reste inchangé.",
  changedSubject: 'Votre mot de passe a été modifié',
  changedNotice:
    'Le mot de passe de votre compte Meridian a été modifié le {{when}} UTC ; toutes les sessions ouvertes avant la modification ont été déconnectées.',
  changedAdvice:
    "Si ce n'était pas vous, réinitialisez immédiatement votre mot de passe depuis la fenêtre de connexion (Mot de passe oublié ?) sur {{publicUrl}} et contactez le support.",
};
