import type { Account, SessionResponse } from '@platform/contracts';

export const accountId = '5f0c7a8e-1b2c-4d3e-8f90-123456789abc';

export function makeAccount(overrides: Partial<Account> = {}): Account {
  return {
    id: accountId,
    email: 'ada@example.com',
    first_name: 'Ada',
    last_name: 'Lovelace',
    phone: null,
    email_verified: false,
    two_factor_enabled: false,
    wallet_address: null,
    wallet_type: null,
    marketing_consent: false,
    role: 'user',
    created_at: '2025-01-01T00:00:00.000Z',
    profile: {
      display_name: null,
      username: null,
      bio: null,
      location: null,
      website: null,
      trading_experience: null,
      private_profile: false,
      allow_copy_trading: false,
      copy_trading_fee_percent: '0',
      language: null,
    },
    ...overrides,
  };
}

export function makeSession(token = 'access-token-1'): SessionResponse {
  return { token, account_id: accountId, token_type: 'Bearer', expires_in: 900, refresh_token: 'refresh-1' };
}
