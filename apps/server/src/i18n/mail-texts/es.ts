import type { MailTexts } from './en.ts';

export const es: MailTexts = {
  greeting: 'Hola, {{firstName}}:',
  verifySubject: 'Verifica tu dirección de correo electrónico',
  verifyIntro: 'Confirma tu dirección de correo electrónico en Meridian abriendo este enlace:',
  verifyAction: 'Verificar mi correo',
  verifyValidity: 'El enlace es válido durante 24 horas. Si no has creado una cuenta, ignora este correo.',
  existingSubject: 'Alguien ha intentado crear una cuenta con tu correo electrónico',
  existingAttempt:
    'Alguien (quizá tú) acaba de intentar crear una cuenta de Meridian con esta dirección de correo. Ya tienes una, así que no se ha creado ni cambiado nada.',
  existingSignIn:
    'Para continuar, inicia sesión en {{publicUrl}} con tu contraseña. Si no la recuerdas, usa "¿Olvidaste tu contraseña?" en la pantalla de inicio de sesión.',
  existingIgnore: 'Si no has sido tú, puedes ignorar este correo.',
  resetSubject: 'Restablece tu contraseña',
  resetIntro:
    'Alguien ha solicitado restablecer la contraseña de tu cuenta de Meridian. Para elegir una contraseña nueva, abre este enlace:',
  resetAction: 'Elegir una contraseña nueva',
  resetValidity:
    'El enlace funciona una sola vez y durante {{minutes}} minutos. Al restablecer la contraseña se cerrará tu sesión en todos los dispositivos.',
  resetIgnore: 'Si no lo has solicitado, ignora este correo: tu contraseña seguirá igual.',
  changedSubject: 'Tu contraseña ha cambiado',
  changedNotice:
    'La contraseña de tu cuenta de Meridian se cambió el {{when}} UTC; se han cerrado todas las sesiones iniciadas antes del cambio.',
  changedAdvice:
    'Si no has sido tú, restablece tu contraseña de inmediato desde la ventana de inicio de sesión (¿Olvidaste tu contraseña?) en {{publicUrl}} y contacta con soporte.',
};
