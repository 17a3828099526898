-- Money coming in (docs/payments.md): deposit addresses, deposits seen on chain, payments through
-- the provider (hosted checkout, Lightning) and the webhooks about them.

-- Each account's place in the deposit key tree, given at its first address request: the index of
-- its addresses (and of its memo on shared-address networks). Never reused.
CREATE TABLE deposit_key_indexes (
  account_id uuid PRIMARY KEY REFERENCES accounts (id),
  key_index integer GENERATED ALWAYS AS IDENTITY (START WITH 1) UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- One address per account and network (an ETH address takes ETH and every ERC-20 token). On
-- shared-address networks (XRP, XLM, ATOM, ...) the memo tells the accounts apart.
CREATE TABLE deposit_addresses (
  account_id uuid NOT NULL REFERENCES accounts (id),
  network text NOT NULL,
  family text NOT NULL,
  derivation_path text NOT NULL,
  address text NOT NULL,
  memo text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, network)
);
-- Who owns an incoming transaction's destination: unique, so a deposit has one owner or none.
CREATE UNIQUE INDEX deposit_addresses_destination ON deposit_addresses (network, address, (coalesce(memo, '')));

-- Transactions seen on chain to our addresses. Credited once, when their confirmations reach the
-- network's requirement: `credited_at` is set in the transaction that posts the ledger entry, and
-- only where it was null. account_id is null for an address or memo nobody owns (unattributed).
CREATE TABLE chain_deposits (
  id uuid PRIMARY KEY,
  network text NOT NULL,
  currency text NOT NULL,
  txid text NOT NULL,
  address text NOT NULL,
  memo text,
  amount numeric NOT NULL CHECK (amount > 0),
  account_id uuid REFERENCES accounts (id),
  confirmations integer NOT NULL DEFAULT 0 CHECK (confirmations >= 0),
  required_confirmations integer NOT NULL CHECK (required_confirmations >= 1),
  status text NOT NULL CHECK (status IN ('pending', 'completed')),
  seen_at timestamptz NOT NULL,
  credited_at timestamptz,
  completed_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (network, txid),
  CHECK (credited_at IS NULL OR (account_id IS NOT NULL AND status = 'completed'))
);
CREATE INDEX chain_deposits_pending_idx ON chain_deposits (seen_at, id) WHERE status = 'pending';
CREATE INDEX chain_deposits_account_idx ON chain_deposits (account_id, created_at DESC, id) WHERE account_id IS NOT NULL;

-- Payments through the provider: hosted-checkout deposits (kind 'deposit'), payments of the §7.4
-- facade ('payment') and Lightning invoices ('lightning'). A row is written 'creating' before the
-- provider is asked and completed (or marked failed) after, so no checkout is ever lost and no row
-- without one is ever shown. Credited once: `credited_at` set where it was null, in the
-- transaction of the ledger entry.
CREATE TABLE payments (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id),
  kind text NOT NULL CHECK (kind IN ('deposit', 'payment', 'lightning')),
  description text NOT NULL,
  order_currency text NOT NULL,
  order_amount numeric NOT NULL CHECK (order_amount > 0),
  pay_currency text,
  provider text NOT NULL,
  provider_reference text,
  checkout_url text,
  crypto_currency text,
  crypto_address text,
  crypto_amount numeric,
  exchange_rate numeric,
  status text NOT NULL
    CHECK (status IN ('creating', 'waiting', 'confirming', 'paid', 'underpaid', 'expired', 'failed', 'refunded')),
  confirmed_amount numeric NOT NULL DEFAULT 0 CHECK (confirmed_amount >= 0),
  unconfirmed_amount numeric NOT NULL DEFAULT 0 CHECK (unconfirmed_amount >= 0),
  credited_amount numeric,
  credited_at timestamptz,
  failure_reason text,
  -- Lightning: the invoice of a 'lightning' row, or the one selected for a payment (LNBC).
  lightning_reference text UNIQUE,
  lightning_provider_reference text,
  lightning_invoice text,
  lightning_payment_hash text,
  lightning_amount numeric,
  lightning_expires_at timestamptz,
  lightning_paid_at timestamptz,
  idempotency_key text,
  expires_at timestamptz NOT NULL,
  polled_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CHECK ((credited_at IS NULL) = (credited_amount IS NULL))
);
-- A retry with the same key returns the first payment (per account and kind).
CREATE UNIQUE INDEX payments_idempotency_key ON payments (account_id, kind, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
CREATE UNIQUE INDEX payments_provider_reference ON payments (provider, provider_reference)
  WHERE provider_reference IS NOT NULL;
CREATE INDEX payments_account_idx ON payments (account_id, kind, created_at DESC, id);
-- What the reconciliation worker polls.
CREATE INDEX payments_open_idx ON payments (polled_at NULLS FIRST, id)
  WHERE status IN ('creating', 'waiting', 'confirming');

-- Webhooks accepted, by the provider's event id: a replay finds its row and changes nothing.
CREATE TABLE webhook_events (
  provider text NOT NULL,
  event_id text NOT NULL,
  kind text NOT NULL,
  subject text,
  received_at timestamptz NOT NULL,
  PRIMARY KEY (provider, event_id)
);

-- Webhooks refused (bad or missing signature, stale timestamp, malformed): for the security log.
CREATE TABLE webhook_rejections (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  provider text NOT NULL,
  reason text NOT NULL,
  source_ip text,
  body_sha256 text NOT NULL,
  body_bytes integer NOT NULL,
  received_at timestamptz NOT NULL
);
CREATE INDEX webhook_rejections_received_idx ON webhook_rejections (received_at);
