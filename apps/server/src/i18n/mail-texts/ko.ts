import type { MailTexts } from './en.ts';

export const ko: MailTexts = {
  greeting: '{{firstName}}님, 안녕하세요.',
  verifySubject: '이메일 주소를 인증해 주세요',
  verifyIntro: '아래 링크를 열어 Meridian 이메일 주소를 확인해 주세요:',
  verifyAction: '이메일 인증하기',
  verifyValidity: '이 링크는 24시간 동안 유효합니다. 계정을 만든 적이 없다면 이 메일을 무시하세요.',
  existingSubject: '누군가 회원님의 이메일로 계정 생성을 시도했습니다',
  existingAttempt:
    '누군가(회원님일 수도 있습니다) 방금 이 이메일 주소로 Meridian 계정을 만들려고 했습니다. 이미 계정이 있으므로 아무것도 생성되거나 변경되지 않았습니다.',
  existingSignIn:
    '계속하려면 {{publicUrl}}에서 비밀번호로 로그인하세요. 비밀번호가 기억나지 않으면 로그인 화면의 "비밀번호 찾기"를 이용하세요.',
  existingIgnore: '본인이 아니라면 이 메일을 무시하셔도 됩니다.',
  resetSubject: '비밀번호 재설정',
  resetIntro:
    '누군가 회원님의 Meridian 계정 비밀번호 재설정을 요청했습니다. 새 비밀번호를 설정하려면 아래 링크를 여세요:',
  resetAction: '새 비밀번호 설정',
  resetValidity:
    '이 링크는 한 번만, {{minutes}}분 동안 사용할 수 있습니다. 비밀번호를 재설정하면 모든 기기에서 로그아웃됩니다.',
  resetIgnore: '요청하지 않으셨다면 이 메일을 무시하세요. 비밀번호는 그대로 유지됩니다.',
  changedSubject: '비밀번호가 변경되었습니다',
  changedNotice:
    'Meridian 계정의 비밀번호가 {{when}} UTC에 변경되었습니다. 변경 전에 로그인되어 있던 모든 세션은 로그아웃되었습니다.',
  changedAdvice:
    '본인이 변경하지 않았다면 즉시 {{publicUrl}}의 로그인 창(비밀번호를 잊으셨나요?)에서 비밀번호를 재설정하고 고객지원에 문의하세요.',
};
