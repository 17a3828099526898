import type { KycStatusResponse, KycSubmission, LightningPayment, Payment, Withdrawal } from '@platform/contracts';

/** Contract-shaped answers for the deposit, withdrawal, payment and KYC tests. */

export function makeWithdrawal(overrides: Partial<Withdrawal> = {}): Withdrawal {
  return {
    id: 'w-1',
    payout_id: 'w-1',
    status: 'pending',
    provider_status: 'creating',
    currency: 'BTC',
    amount: '0.5',
    fee: '0.0005',
    total_amount: '0.5005',
    address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    extra_id: null,
    network: null,
    batch_withdrawal_id: null,
    verification_required: false,
    hash: null,
    reason: null,
    usd_value: '30000',
    payout_description: null,
    unique_external_id: null,
    ipn_callback_url: null,
    fiat_amount: null,
    fiat_currency: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    completed_at: null,
    ...overrides,
  };
}

export function makePayment(overrides: Partial<Payment> = {}): Payment {
  return {
    id: 'p-1',
    reference: 'p-1',
    payment_reference: 'TAP-1',
    description: 'Order 42',
    amount: '25',
    currency: 'USD',
    crypto_currency: null,
    crypto_address: null,
    crypto_amount: null,
    exchange_rate: null,
    status: 'waiting',
    final: false,
    expiresAt: '2099-01-01T00:25:00.000Z',
    finalAmount: null,
    checkout_url: 'http://localhost/sandbox/checkout/p-1',
    lightning: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function makeLightning(overrides: Partial<LightningPayment> = {}): LightningPayment {
  return {
    id: 'l-1',
    invoice: 'lntb40u1pjexampleinvoice0000000000000000000000000000000000000000',
    payment_hash: 'ab'.repeat(32),
    amount: '0.00004',
    description: 'Coffee',
    expires_at: '2099-01-01T01:00:00.000Z',
    status: 'waiting',
    paid_at: null,
    created_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function makeKycSubmission(overrides: Partial<KycSubmission> = {}): KycSubmission {
  return {
    id: 'kyc-1',
    status: 'pending',
    reason: null,
    submitted_at: '2026-01-01T00:00:00.000Z',
    reviewed_at: null,
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@example.com',
    phone: '+44 20 7946 0958',
    date_of_birth: '1990-12-10',
    country: 'GB',
    address: '12 St James Sq',
    city: 'London',
    postal_code: 'SW1Y 4JH',
    document_type: 'drivers_license',
    document_number: '•••••1234',
    documents: ['documentFront', 'documentBack'],
    ...overrides,
  };
}

/** An account that never submitted: the unverified tier and its limit. */
export function makeKycStatus(overrides: Partial<KycStatusResponse> = {}): KycStatusResponse {
  return {
    tier: 'unverified',
    latest_submission: null,
    daily_withdrawal_limit_usd: '2000',
    can_submit: true,
    ...overrides,
  };
}
