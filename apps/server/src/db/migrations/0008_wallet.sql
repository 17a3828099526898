-- Transfers between users (spec §3.5, §4, §5). Created with the sender's funds held
-- (available -> locked), then settled by the transfer settler: locked -> the recipient's available.
CREATE TABLE transfers (
  id uuid PRIMARY KEY,
  from_account_id uuid NOT NULL REFERENCES accounts (id),
  to_account_id uuid NOT NULL REFERENCES accounts (id),
  currency text NOT NULL,
  amount numeric NOT NULL CHECK (amount > 0),
  memo text,
  status text NOT NULL CHECK (status IN ('CREATED', 'WAITING', 'FINISHED', 'REJECTED')),
  reason text,
  idempotency_key text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (from_account_id <> to_account_id)
);
-- A retry with the same key returns the first transfer.
CREATE UNIQUE INDEX transfers_idempotency_key ON transfers (from_account_id, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
CREATE INDEX transfers_from_idx ON transfers (from_account_id, created_at DESC, id);
CREATE INDEX transfers_to_idx ON transfers (to_account_id, created_at DESC, id);
-- What the settler still has to do.
CREATE INDEX transfers_unsettled_idx ON transfers (created_at, id) WHERE status IN ('CREATED', 'WAITING');

-- Locked balances are the open orders' reserves plus the transfers not settled yet.
CREATE OR REPLACE VIEW ledger_reserves AS
  SELECT account_id, reserve_currency AS currency, reserved AS amount
  FROM orders
  WHERE status IN ('pending', 'partial') AND reserved > 0
  UNION ALL
  SELECT from_account_id AS account_id, currency, amount
  FROM transfers
  WHERE status IN ('CREATED', 'WAITING');
