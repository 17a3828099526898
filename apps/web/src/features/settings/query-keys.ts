/** The TanStack Query keys of the account's settings (its profile, read by the withdraw form too). */
export const settingsQueryKeys = {
  /** The account (profile and its two-factor flag); 'anonymous' before sign-in. */
  account: (userId: string) => ['account', userId] as const,
  sessions: () => ['auth', 'sessions'] as const,
};
