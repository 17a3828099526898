import type { MailTexts } from './en.ts';

export const ja: MailTexts = {
  greeting: '{{firstName}} 様',
  verifySubject: 'メールアドレスの確認',
  verifyIntro: '以下のリンクを開いて、Meridian に登録したメールアドレスを確認してください。',
  verifyAction: 'メールアドレスを確認する',
  verifyValidity:
    'このリンクの有効期限は 24 時間です。アカウントを作成した覚えがない場合は、このメールを破棄してください。',
  existingSubject: 'お客様のメールアドレスでアカウントの作成が試みられました',
  existingAttempt:
    'このメールアドレスで Meridian のアカウントを作成しようとする操作がありました（お客様ご本人による操作かもしれません）。すでにアカウントをお持ちのため、新たな作成や変更は行われていません。',
  existingSignIn:
    '続けるには、{{publicUrl}} でパスワードを使ってログインしてください。パスワードをお忘れの場合は、ログイン画面の「パスワードをお忘れですか」をご利用ください。',
  existingIgnore: 'お心当たりがない場合は、このメールを破棄してください。',
  resetSubject: 'パスワードの再設定',
  resetIntro:
    'Meridian アカウントのパスワード再設定のリクエストを受け付けました。新しいパスワードを設定するには、以下のリンクを開いてください。',
  resetAction: '新しいパスワードを設定する',
  resetValidity:
    'このリンクは 1 回のみ、{{minutes}} 分間有効です。パスワードを再設定すると、すべてのデバイスでログアウトされます。',
  resetIgnore: 'お心当たりがない場合は、このメールを破棄してください。パスワードは変更されません。',
  changedSubject: 'パスワードが変更されました',
  changedNotice:
    'Meridian アカウントのパスワードが {{when}} UTC に変更されました。変更前にログインしていたすべてのセッションはログアウトされています。',
  changedAdvice:
    'お心当たりがない場合は、直ちに {{publicUrl}} のログイン画面（パスワードをお忘れですか？）からパスワードを再設定し、サポートまでご連絡ください。',
};
