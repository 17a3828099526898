import type { MailTexts } from './en.ts';

export const tr: MailTexts = {
  greeting: 'Merhaba {{firstName}},',
  verifySubject: 'E-posta adresinizi doğrulayın',
  verifyIntro: 'Lütfen bu bağlantıyı açarak Meridian için e-posta adresinizi onaylayın:',
  verifyAction: 'E-postamı doğrula',
  verifyValidity: 'Bağlantı 24 saat geçerlidir. Bir hesap oluşturmadıysanız bu e-postayı dikkate almayın.',
  existingSubject: 'Birisi e-posta adresinizle hesap oluşturmaya çalıştı',
  existingAttempt:
    'Birisi (belki siz) az önce bu e-posta adresiyle bir Meridian hesabı oluşturmaya çalıştı. Zaten bir hesabınız olduğu için hiçbir şey oluşturulmadı ve hiçbir şey değişmedi.',
  existingSignIn:
    'Devam etmek için {{publicUrl}} adresinde şifrenizle giriş yapın. Şifrenizi hatırlamıyorsanız giriş ekranındaki "Şifremi unuttum" seçeneğini kullanın.',
  existingIgnore: 'Bu siz değilseniz bu e-postayı dikkate almayabilirsiniz.',
  resetSubject: 'Şifrenizi sıfırlayın',
  resetIntro:
    'Birisi Meridian hesabınızın şifresinin sıfırlanmasını istedi. Yeni bir şifre belirlemek için bu bağlantıyı açın:',
  resetAction: 'Yeni şifre belirle',
  resetValidity:
    'Bağlantı yalnızca bir kez ve {{minutes}} dakika boyunca çalışır. Şifreyi sıfırlamak tüm cihazlarda oturumunuzu kapatır.',
  resetIgnore: 'Bunu siz istemediyseniz bu e-postayı dikkate almayın: şifreniz olduğu gibi kalır.',
  changedSubject: 'Şifreniz değiştirildi',
  changedNotice:
    'Meridian hesabınızın şifresi {{when}} UTC tarihinde değiştirildi; değişiklikten önce açılmış tüm oturumlar kapatıldı.',
  changedAdvice:
    'Bu siz değilseniz hemen {{publicUrl}} adresindeki giriş penceresinden (Şifremi unuttum?) şifrenizi sıfırlayın ve destek ekibiyle iletişime geçin.',
};
