import { passwordStrength, passwordStrengthLabel } from '@platform/contracts';
import { useTranslation } from 'react-i18next';

const SEGMENTS = 5;

/** Spec §5: a 0 to 5 score, labelled Weak (0-1), Fair (2), Good (3) or Strong (4-5). */
export function PasswordStrengthBar({ password }: { password: string }) {
  const { t } = useTranslation();
  const score = passwordStrength(password);
  const label = passwordStrengthLabel(score);
  return (
    <div className={`strength strength-${label}`} data-testid="password-strength">
      {/* biome-ignore lint/a11y/useSemanticElements: a native <meter> cannot draw the five segments */}
      <div
        className="strength-bar"
        role="meter"
        aria-label={t('auth.strength.label')}
        aria-valuemin={0}
        aria-valuemax={SEGMENTS}
        aria-valuenow={score}
        aria-valuetext={t(`auth.strength.${label}`)}
      >
        {Array.from({ length: SEGMENTS }, (_, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: segments are positional and never reorder
          <span key={index} className={index < score ? 'strength-segment filled' : 'strength-segment'} />
        ))}
      </div>
      <span className="strength-label">{password.length > 0 ? t(`auth.strength.${label}`) : '\u00a0'}</span>
    </div>
  );
}
