-- The liquidation engine's audit trail (docs/futures.md, "Liquidation, insurance fund and ADL"):
-- one row per step of each liquidation, written in the batch that decided it. `sequence` is the
-- liquidate command's journal sequence (its inputs, the marks, are in futures_journal).
CREATE TABLE futures_liquidations (
  id bigserial PRIMARY KEY,
  sequence bigint NOT NULL,
  account_id uuid NOT NULL REFERENCES accounts(id),
  market_id text NOT NULL REFERENCES futures_markets(id),
  step text NOT NULL CHECK (step IN (
    'cancel_orders', 'partial_close', 'close', 'insurance_close', 'adl', 'liquidation_fee', 'surplus', 'insurance_clear'
  )),
  mark_price numeric NOT NULL CHECK (mark_price > 0),
  bankruptcy_price numeric CHECK (bankruptcy_price > 0),
  price numeric CHECK (price > 0),
  quantity numeric CHECK (quantity >= 0),
  amount numeric,
  counterparty_account_id uuid REFERENCES accounts(id),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX futures_liquidations_account ON futures_liquidations (account_id, created_at DESC);
CREATE INDEX futures_liquidations_sequence ON futures_liquidations (sequence);
