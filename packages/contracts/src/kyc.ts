/**
 * KYC tiers and what they allow (spec §2.7, §3.4, §9). An account is 'unverified' until a
 * compliance reviewer approves its verification; verified accounts get the higher limits.
 */
export const KYC_TIERS = ['unverified', 'verified'] as const;
export type KycTier = (typeof KYC_TIERS)[number];

/**
 * Most an account may withdraw per rolling 24 hours, in USD at the reference price of the moment
 * of each withdrawal (decimal strings; exact).
 */
export const DAILY_WITHDRAWAL_LIMITS_USD: Readonly<Record<KycTier, string>> = {
  unverified: '2000',
  verified: '100000',
};
