-- The sandbox payment provider (docs/payment-providers.md): the embedded stand-in for Triple-A and
-- NOWPayments. These tables are the provider's own books, not ours: the payments and withdrawals
-- modules keep their records elsewhere and learn about changes through signed webhooks, exactly as
-- they would from a real provider. Everything lives here so that a restart loses nothing: pending
-- confirmations, payout steps and webhook deliveries are re-armed from these rows at start.

-- Hosted checkouts (GET /sandbox/checkout/:id). `reference` is the caller's id: a repeated
-- createCheckout with the same reference answers the existing row.
CREATE TABLE sandbox_payments (
  id text PRIMARY KEY,
  reference text NOT NULL UNIQUE,
  order_currency text NOT NULL,
  order_amount numeric NOT NULL CHECK (order_amount > 0),
  crypto_currency text NOT NULL,
  crypto_amount numeric CHECK (crypto_amount > 0),
  crypto_address text NOT NULL,
  exchange_rate numeric CHECK (exchange_rate > 0),
  description text NOT NULL,
  payer_account_id text NOT NULL,
  payer_email text,
  success_url text NOT NULL,
  cancel_url text NOT NULL,
  notify_url text NOT NULL,
  status text NOT NULL CHECK (status IN ('waiting', 'confirming', 'paid', 'underpaid', 'expired', 'failed', 'refunded')),
  -- What the payer sent (order currency): unconfirmed while confirming, confirmed once final.
  paid_order_amount numeric NOT NULL DEFAULT 0 CHECK (paid_order_amount >= 0),
  -- When a confirming payment becomes final.
  confirm_at timestamptz,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
-- What the timers re-arm at start.
CREATE INDEX sandbox_payments_pending_idx ON sandbox_payments (status) WHERE status IN ('waiting', 'confirming');

CREATE TABLE sandbox_refunds (
  id text PRIMARY KEY,
  payment_id text NOT NULL REFERENCES sandbox_payments (id),
  amount numeric NOT NULL CHECK (amount > 0),
  email text NOT NULL,
  created_at timestamptz NOT NULL
);

-- Payouts: creating -> waiting -> processing -> finished, one step every SANDBOX_PAYOUT_STEP_MS,
-- or failed by the control POST /sandbox/payouts/:id/fail.
CREATE TABLE sandbox_payouts (
  id text PRIMARY KEY,
  batch_id text NOT NULL UNIQUE,
  reference text NOT NULL UNIQUE,
  currency text NOT NULL,
  amount numeric NOT NULL CHECK (amount > 0),
  address text NOT NULL,
  extra_id text,
  description text NOT NULL,
  notify_url text NOT NULL,
  status text NOT NULL CHECK (status IN ('creating', 'waiting', 'processing', 'sending', 'finished', 'failed', 'rejected')),
  hash text,
  error text,
  next_step_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX sandbox_payouts_pending_idx ON sandbox_payouts (status) WHERE status IN ('creating', 'waiting', 'processing', 'sending');

-- Lightning invoices: a real BOLT11 string whose payment hash is sha256(preimage); the preimage is
-- kept here as a real node keeps it, and revealed to nobody.
CREATE TABLE sandbox_invoices (
  payment_hash text PRIMARY KEY,
  reference text NOT NULL UNIQUE,
  preimage text NOT NULL,
  amount_msat numeric NOT NULL CHECK (amount_msat > 0),
  description text NOT NULL,
  invoice text NOT NULL,
  notify_url text NOT NULL,
  status text NOT NULL CHECK (status IN ('open', 'paid')),
  expires_at timestamptz NOT NULL,
  paid_at timestamptz,
  created_at timestamptz NOT NULL
);

-- Webhooks to deliver (an outbox): written in the transaction of the change they announce, sent
-- after it commits, retried with back-off until a 2xx answer or the last attempt ('abandoned': the
-- receiver can still poll the status calls). `subject` is the payment, payout or invoice it is about.
CREATE TABLE sandbox_webhooks (
  id bigserial PRIMARY KEY,
  url text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('payment', 'payout', 'lightning')),
  subject text NOT NULL,
  body text NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'abandoned')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  last_error text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX sandbox_webhooks_pending_idx ON sandbox_webhooks (next_attempt_at) WHERE state = 'pending';
-- Webhooks about one subject go out in order: a later one waits for the earlier pending ones.
CREATE INDEX sandbox_webhooks_subject_idx ON sandbox_webhooks (subject, id) WHERE state = 'pending';
