-- The double-entry ledger (see docs/ledger.md). Balances are derived: a ledger account's
-- available and locked always equal the sums of its postings per bucket, and they change only
-- through modules/ledger, in the same transaction as the postings that explain them.

-- One balance per owner and currency. Users never go below zero, and the database itself refuses
-- it; only system accounts that stand for money outside the exchange (custody, market making)
-- may, since their negative balance is what the exchange's users hold.
CREATE TABLE ledger_accounts (
  id bigserial PRIMARY KEY,
  owner_kind text NOT NULL CHECK (owner_kind IN ('user', 'system')),
  -- No ON DELETE CASCADE: the history of money must outlive any row that refers to it.
  account_id uuid REFERENCES accounts (id),
  system_name text,
  currency text NOT NULL CHECK (currency ~ '^[A-Z0-9]{1,20}$'),
  available numeric NOT NULL DEFAULT 0,
  locked numeric NOT NULL DEFAULT 0,
  allow_negative boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Named: the ledger service maps a violation of these two to INSUFFICIENT_BALANCE.
  CONSTRAINT ledger_accounts_available_check CHECK (allow_negative OR available >= 0),
  CONSTRAINT ledger_accounts_locked_check CHECK (locked >= 0),
  CONSTRAINT ledger_accounts_owner_check CHECK (
    (owner_kind = 'user' AND account_id IS NOT NULL AND system_name IS NULL AND NOT allow_negative)
    OR (owner_kind = 'system' AND account_id IS NULL AND system_name ~ '^[a-z][a-z0-9_]{0,62}$')
  )
);
CREATE UNIQUE INDEX ledger_accounts_user_key ON ledger_accounts (account_id, currency) WHERE owner_kind = 'user';
CREATE UNIQUE INDEX ledger_accounts_system_key ON ledger_accounts (system_name, currency) WHERE owner_kind = 'system';

-- One business event (a fill, a deposit, a hold for an order), explained by its postings.
CREATE TABLE ledger_entries (
  id bigserial PRIMARY KEY,
  kind text NOT NULL CHECK (kind <> ''),
  reference text NOT NULL CHECK (reference <> ''),
  metadata jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ledger_entries_reference_idx ON ledger_entries (reference, kind);

-- Signed amounts: per entry and currency they sum to exactly zero (checked by the service before
-- writing and by the invariant check after the fact).
CREATE TABLE ledger_postings (
  id bigserial PRIMARY KEY,
  entry_id bigint NOT NULL REFERENCES ledger_entries (id),
  ledger_account_id bigint NOT NULL REFERENCES ledger_accounts (id),
  bucket text NOT NULL CHECK (bucket IN ('available', 'locked')),
  amount numeric NOT NULL CHECK (amount <> 0)
);
CREATE INDEX ledger_postings_entry_idx ON ledger_postings (entry_id);
-- Per-account history, newest first, and the per-account sums of the invariant check.
CREATE INDEX ledger_postings_account_idx ON ledger_postings (ledger_account_id, id);

-- What the locked balances should add up to, per user and currency: the open orders' reserves
-- and, later, pending withdrawals. Empty until the orders migration replaces it
-- (CREATE OR REPLACE VIEW with the same three columns).
CREATE VIEW ledger_reserves AS
SELECT NULL::uuid AS account_id, NULL::text AS currency, NULL::numeric AS amount
WHERE false;
