import type { MailTexts } from './en.ts';

export const zh: MailTexts = {
  greeting: '{{firstName}}，您好：',
  verifySubject: '验证您的电子邮箱地址',
  verifyIntro: '请打开以下链接，确认您在 Meridian 的电子邮箱地址：',
  verifyAction: '验证我的邮箱',
  verifyValidity: '该链接 24 小时内有效。如果您没有创建过账户，请忽略此邮件。',
  existingSubject: '有人尝试用您的邮箱创建账户',
  existingAttempt:
    '有人（也许是您本人）刚刚尝试用此邮箱地址创建 Meridian 账户。您已经有一个账户，因此没有创建任何内容，也没有任何更改。',
  existingSignIn: '如需继续，请在 {{publicUrl}} 使用您的密码登录。如果忘记了密码，请在登录界面使用“忘记密码”。',
  existingIgnore: '如果这不是您本人的操作，可以忽略此邮件。',
  resetSubject: '重置您的密码',
  resetIntro: '有人请求重置您的 Meridian 账户密码。如需设置新密码，请打开以下链接：',
  resetAction: '设置新密码',
  resetValidity: '该链接仅可使用一次，有效期 {{minutes}} 分钟。重置密码后，您将在所有设备上退出登录。',
  resetIgnore: '如果这不是您发起的请求，请忽略此邮件：您的密码将保持不变。',
  changedSubject: '您的密码已更改',
  changedNotice: '您的 Meridian 账户密码已于 {{when}} UTC 更改；更改前登录的所有会话均已退出。',
  changedAdvice: '如果这不是您本人的操作，请立即在 {{publicUrl}} 的登录窗口（忘记密码？）中重置密码，并联系客服。',
};
