/** Every TanStack Query key of the client, in one place. */
export const queryKeys = {
  account: (accountId: string) => ['account', accountId] as const,
};
