import type { MailTexts } from './en.ts';

export const pt: MailTexts = {
  greeting: 'Olá, {{firstName}},',
  verifySubject: 'Verifique o seu endereço de e-mail',
  verifyIntro: 'Confirme o seu endereço de e-mail na Meridian abrindo este link:',
  verifyAction: 'Verificar o meu e-mail',
  verifyValidity: 'O link é válido durante 24 horas. Se não criou uma conta, ignore este e-mail.',
  existingSubject: 'Alguém tentou criar uma conta com o seu e-mail',
  existingAttempt:
    'Alguém (talvez você) acabou de tentar criar uma conta Meridian com este endereço de e-mail. Já tem uma, por isso nada foi criado nem alterado.',
  existingSignIn:
    'Para continuar, inicie sessão em {{publicUrl}} com a sua palavra-passe. Se não se lembrar dela, use "Esqueci-me da palavra-passe" no ecrã de início de sessão.',
  existingIgnore: 'Se não foi você, pode ignorar este e-mail.',
  resetSubject: 'Redefina a sua palavra-passe',
  resetIntro:
    'Alguém pediu para redefinir a palavra-passe da sua conta Meridian. Para escolher uma nova palavra-passe, abra este link:',
  resetAction: 'Escolher uma nova palavra-passe',
  resetValidity:
    'O link funciona uma única vez e durante {{minutes}} minutos. Redefinir a palavra-passe termina a sua sessão em todos os dispositivos.',
  resetIgnore: 'Se não fez este pedido, ignore este e-mail: a sua palavra-passe mantém-se.',
  changedSubject: 'A sua palavra-passe foi alterada',
  changedNotice:
    'A palavra-passe da sua conta Meridian foi alterada em {{when}} UTC; todas as sessões iniciadas antes da alteração foram terminadas.',
  changedAdvice:
    'Se não foi você, redefina já a sua palavra-passe na janela de início de sessão (Esqueceu-se da palavra-passe?) em {{publicUrl}} e contacte o apoio.',
};
