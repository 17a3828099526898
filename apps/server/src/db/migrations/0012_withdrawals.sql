-- Withdrawals and payouts (spec §3.5, §4, §5, §7.3, §7.4, §9; docs/withdrawals.md). A withdrawal is
-- recorded 'pending' with amount + fee held (available -> locked) in the same transaction, sent to
-- the payment provider by the payout processor, then completed (the hold leaves the books) or
-- failed (the hold goes back).
CREATE TABLE withdrawals (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id),
  -- The mass payout it belongs to; a single withdrawal is a payout of one item with its own id.
  payout_id uuid NOT NULL,
  -- Its place among the payout's items, as they were sent.
  payout_index integer NOT NULL DEFAULT 0,
  currency text NOT NULL,
  amount numeric NOT NULL CHECK (amount > 0),
  fee numeric NOT NULL CHECK (fee >= 0),
  address text NOT NULL,
  extra_id text,
  status text NOT NULL CHECK (status IN ('pending', 'completed', 'failed')),
  -- The provider it was (or is to be) sent through, and what that provider calls it.
  provider text,
  provider_reference text,
  batch_id text,
  provider_status text,
  needs_verification boolean NOT NULL DEFAULT false,
  hash text,
  reason text,
  -- USD worth at the reference price of the moment it was requested: what the daily limit counts.
  usd_value numeric NOT NULL CHECK (usd_value >= 0),
  idempotency_key text,
  payout_description text,
  unique_external_id text,
  ipn_callback_url text,
  fiat_amount numeric,
  fiat_currency text,
  -- The payout processor's bookkeeping: sends tried, when to try again, whose claim it is under.
  send_attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  claimed_until timestamptz,
  last_error text,
  sent_at timestamptz,
  polled_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz
);
-- A retry with the same key returns the first withdrawal.
CREATE UNIQUE INDEX withdrawals_idempotency_key ON withdrawals (account_id, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
CREATE INDEX withdrawals_account_idx ON withdrawals (account_id, created_at DESC, id);
CREATE INDEX withdrawals_payout_idx ON withdrawals (payout_id, payout_index);
CREATE INDEX withdrawals_provider_reference_idx ON withdrawals (provider_reference) WHERE provider_reference IS NOT NULL;
CREATE INDEX withdrawals_batch_idx ON withdrawals (batch_id) WHERE batch_id IS NOT NULL;
-- What the payout processor still has to send, and what it polls.
CREATE INDEX withdrawals_unsent_idx ON withdrawals (next_attempt_at, created_at)
  WHERE status = 'pending' AND provider_reference IS NULL;
CREATE INDEX withdrawals_in_flight_idx ON withdrawals (polled_at NULLS FIRST, created_at)
  WHERE status = 'pending' AND provider_reference IS NOT NULL;

-- A mass payout's idempotency key: a retry of POST /api/v1/wallet/payout returns the first payout.
CREATE TABLE withdrawal_payouts (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id),
  idempotency_key text NOT NULL,
  -- sha256 of the normalised items: another payload under the same key is a conflict.
  fingerprint text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (account_id, idempotency_key)
);

-- Locked balances are the open orders' reserves, the transfers not settled yet and the pending
-- withdrawals' amount + fee.
CREATE OR REPLACE VIEW ledger_reserves AS
  SELECT account_id, reserve_currency AS currency, reserved AS amount
  FROM orders
  WHERE status IN ('pending', 'partial') AND reserved > 0
  UNION ALL
  SELECT from_account_id AS account_id, currency, amount
  FROM transfers
  WHERE status IN ('CREATED', 'WAITING')
  UNION ALL
  SELECT account_id, currency, amount + fee AS amount
  FROM withdrawals
  WHERE status = 'pending';
