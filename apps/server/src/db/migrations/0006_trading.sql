-- Spot trading: orders, trades, the per-market command journal and engine snapshots.
-- See docs/trading.md for the order flow and how a restart rebuilds the books.

CREATE TABLE orders (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id),
  pair_id text NOT NULL REFERENCES trading_pairs (id),
  client_order_id text,
  side text NOT NULL CHECK (side IN ('buy', 'sell')),
  type text NOT NULL CHECK (type IN ('market', 'limit', 'stop_loss', 'stop_limit', 'take_profit', 'take_profit_limit', 'oco')),
  time_in_force text NOT NULL CHECK (time_in_force IN ('GTC', 'IOC', 'FOK')),
  post_only boolean NOT NULL DEFAULT false,
  self_trade_prevention text,
  price numeric CHECK (price > 0),
  stop_price numeric CHECK (stop_price > 0),
  stop_limit_price numeric CHECK (stop_limit_price > 0),
  quantity numeric CHECK (quantity > 0),
  quote_amount numeric CHECK (quote_amount > 0),
  filled_quantity numeric NOT NULL DEFAULT 0 CHECK (filled_quantity >= 0),
  filled_total numeric NOT NULL DEFAULT 0 CHECK (filled_total >= 0),
  fee numeric NOT NULL DEFAULT 0 CHECK (fee >= 0),
  status text NOT NULL CHECK (status IN ('pending', 'partial', 'filled', 'completed', 'cancelled', 'expired', 'rejected')),
  triggered boolean NOT NULL DEFAULT false,
  reject_reason text,
  -- What is still held for this order (quote for a buy, base for a sell); 0 once it is closed.
  reserve_currency text NOT NULL,
  reserved numeric NOT NULL CHECK (reserved >= 0),
  -- The reference price (ticks) the order was priced with: market orders hold up to the band around it.
  reference_ticks bigint,
  end_reason text,
  -- The market command sequence of the order's placement (rows are written by the sequencer's batch).
  sequence bigint,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CHECK (quantity IS NOT NULL OR quote_amount IS NOT NULL),
  CHECK (status IN ('pending', 'partial') OR reserved = 0)
);
CREATE UNIQUE INDEX orders_client_order_id_idx ON orders (account_id, client_order_id) WHERE client_order_id IS NOT NULL;
CREATE INDEX orders_account_created_idx ON orders (account_id, created_at DESC);
CREATE INDEX orders_open_idx ON orders (pair_id) WHERE status IN ('pending', 'partial');

CREATE TABLE trades (
  id text PRIMARY KEY,
  pair_id text NOT NULL REFERENCES trading_pairs (id),
  sequence bigint NOT NULL,
  price numeric NOT NULL CHECK (price > 0),
  quantity numeric NOT NULL CHECK (quantity > 0),
  total numeric NOT NULL CHECK (total > 0),
  taker_side text NOT NULL CHECK (taker_side IN ('buy', 'sell')),
  maker_order_id uuid NOT NULL REFERENCES orders (id),
  taker_order_id uuid NOT NULL REFERENCES orders (id),
  maker_account_id uuid NOT NULL REFERENCES accounts (id),
  taker_account_id uuid NOT NULL REFERENCES accounts (id),
  maker_fee numeric NOT NULL CHECK (maker_fee >= 0),
  taker_fee numeric NOT NULL CHECK (taker_fee >= 0),
  fee_currency text NOT NULL,
  executed_at timestamptz NOT NULL
);
CREATE INDEX trades_pair_time_idx ON trades (pair_id, executed_at DESC);
CREATE INDEX trades_maker_account_idx ON trades (maker_account_id, executed_at DESC);
CREATE INDEX trades_taker_account_idx ON trades (taker_account_id, executed_at DESC);
CREATE INDEX trades_maker_order_idx ON trades (maker_order_id);
CREATE INDEX trades_taker_order_idx ON trades (taker_order_id);

-- Every command a market's sequencer applied, in order. Replaying it from a snapshot rebuilds the book.
CREATE TABLE market_journal (
  pair_id text NOT NULL,
  sequence bigint NOT NULL,
  command jsonb NOT NULL,
  accepted boolean NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (pair_id, sequence)
);

CREATE TABLE market_snapshots (
  pair_id text NOT NULL,
  sequence bigint NOT NULL,
  state_hash text NOT NULL,
  snapshot jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (pair_id, sequence)
);

-- Open orders hold funds; the ledger invariant checks that locked balances equal these reserves.
CREATE OR REPLACE VIEW ledger_reserves AS
  SELECT account_id, reserve_currency AS currency, reserved AS amount
  FROM orders
  WHERE status IN ('pending', 'partial') AND reserved > 0;
