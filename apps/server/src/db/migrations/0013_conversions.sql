-- Conversions between currencies and quick trades (spec §3.5, §7.3). An estimate is a stored quote
-- that its owner can execute once before it expires; a conversion (from a quote) or a quick trade
-- (priced at the moment) is settled with the house desk in one ledger transaction.
CREATE TABLE conversion_quotes (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id),
  from_currency text NOT NULL,
  to_currency text NOT NULL,
  from_amount numeric NOT NULL CHECK (from_amount > 0),
  -- What the desk pays before the spread, the spread, and what the caller receives (gross - spread).
  gross_amount numeric NOT NULL CHECK (gross_amount > 0),
  spread_amount numeric NOT NULL CHECK (spread_amount >= 0),
  to_amount numeric NOT NULL CHECK (to_amount > 0),
  rate numeric NOT NULL,
  spread_bps integer NOT NULL,
  price_source text NOT NULL CHECK (price_source IN ('order_book', 'reference')),
  route text[] NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  CHECK (from_currency <> to_currency),
  CHECK (gross_amount = spread_amount + to_amount)
);
-- "The caller's latest unexpired quote for exactly this from/to/amount".
CREATE INDEX conversion_quotes_account_idx ON conversion_quotes (account_id, from_currency, to_currency, created_at DESC);
-- Expired quotes are swept after a while.
CREATE INDEX conversion_quotes_expiry_idx ON conversion_quotes (expires_at);

CREATE TABLE conversions (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id),
  kind text NOT NULL CHECK (kind IN ('conversion', 'trade')),
  -- No foreign key: expired quotes are swept, the conversion keeps the id it was made from.
  quote_id uuid,
  from_currency text NOT NULL,
  to_currency text NOT NULL,
  from_amount numeric NOT NULL CHECK (from_amount > 0),
  gross_amount numeric NOT NULL CHECK (gross_amount > 0),
  spread_amount numeric NOT NULL CHECK (spread_amount >= 0),
  to_amount numeric NOT NULL CHECK (to_amount > 0),
  rate numeric NOT NULL,
  spread_bps integer NOT NULL,
  price_source text NOT NULL CHECK (price_source IN ('order_book', 'reference')),
  route text[] NOT NULL,
  -- Quick trades: the type asked for and the least the caller accepted to receive.
  trade_type text,
  target_amount numeric,
  idempotency_key text,
  created_at timestamptz NOT NULL,
  CHECK (from_currency <> to_currency),
  CHECK (gross_amount = spread_amount + to_amount)
);
-- A quote is executed at most once.
CREATE UNIQUE INDEX conversions_quote_idx ON conversions (quote_id) WHERE quote_id IS NOT NULL;
-- A retry with the same key returns the first conversion.
CREATE UNIQUE INDEX conversions_idempotency_key ON conversions (account_id, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
CREATE INDEX conversions_account_idx ON conversions (account_id, kind, created_at DESC, id);
