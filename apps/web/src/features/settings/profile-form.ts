import {
  type Account,
  type TradingExperience,
  tradingExperienceSchema,
  type UpdateProfileRequest,
  updateProfileRequestSchema,
} from '@platform/contracts';
import type { FieldErrors, Resolver } from 'react-hook-form';

/** Spec §3.3: the profile form, in the form's own camelCase names. */
export interface ProfileFormValues {
  displayName: string;
  username: string;
  bio: string;
  location: string;
  website: string;
  tradingExperience: TradingExperience | '';
  privateProfile: boolean;
  allowCopyTrading: boolean;
  copyTradingFeePercent: string;
}

export const tradingExperienceOptions = tradingExperienceSchema.options;

const formFieldOfRequestField: Record<string, keyof ProfileFormValues> = {
  display_name: 'displayName',
  username: 'username',
  bio: 'bio',
  location: 'location',
  website: 'website',
  trading_experience: 'tradingExperience',
  private_profile: 'privateProfile',
  allow_copy_trading: 'allowCopyTrading',
  copy_trading_fee_percent: 'copyTradingFeePercent',
};

export function profileFormField(requestField: string): keyof ProfileFormValues | undefined {
  return formFieldOfRequestField[requestField];
}

export function profileFormDefaults(account: Account): ProfileFormValues {
  const profile = account.profile;
  return {
    displayName: profile.display_name ?? '',
    username: profile.username ?? '',
    bio: profile.bio ?? '',
    location: profile.location ?? '',
    website: profile.website ?? '',
    tradingExperience: profile.trading_experience ?? '',
    privateProfile: profile.private_profile,
    allowCopyTrading: profile.allow_copy_trading,
    copyTradingFeePercent: profile.copy_trading_fee_percent,
  };
}

const blankToNull = (value: string) => (value.trim() === '' ? null : value.trim());

/** Empty text clears a field (null); the fee defaults to 0. */
export function toProfileRequest(values: ProfileFormValues): UpdateProfileRequest {
  return {
    display_name: blankToNull(values.displayName),
    username: blankToNull(values.username),
    bio: blankToNull(values.bio),
    location: blankToNull(values.location),
    website: blankToNull(values.website),
    trading_experience: values.tradingExperience === '' ? null : values.tradingExperience,
    private_profile: values.privateProfile,
    allow_copy_trading: values.allowCopyTrading,
    copy_trading_fee_percent: values.copyTradingFeePercent.trim() === '' ? '0' : values.copyTradingFeePercent.trim(),
  };
}

/**
 * Validates with the very schema the server applies (contracts), so the form and the server never
 * disagree; messages are `validation.*` keys for the view to translate.
 */
export const profileResolver: Resolver<ProfileFormValues> = async (values) => {
  const parsed = updateProfileRequestSchema.safeParse(toProfileRequest(values));
  if (parsed.success) return { values, errors: {} };
  const errors: FieldErrors<ProfileFormValues> = {};
  for (const issue of parsed.error.issues) {
    const field = profileFormField(String(issue.path[0] ?? ''));
    if (field && !errors[field]) errors[field] = { type: 'validation', message: issue.message };
  }
  return { values: {}, errors };
};
