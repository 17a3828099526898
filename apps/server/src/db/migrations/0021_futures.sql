-- Perpetual futures (docs/futures.md). The exchange's in-memory state is rebuilt at start from
-- these rows only: markets, per-account settings, positions and open orders (in engine sequence
-- order). Money is in the ledger (futures wallets, futures_clearing, futures_fees, insurance_fund);
-- every batch's rows, ledger entries and journal commit in one transaction.
CREATE TABLE futures_markets (
  id text PRIMARY KEY CHECK (id ~ '^[A-Z0-9]{2,12}_USD_PERP$'),
  base_currency text NOT NULL,
  price_decimals integer NOT NULL CHECK (price_decimals >= 0),
  quantity_decimals integer NOT NULL CHECK (quantity_decimals >= 0 AND price_decimals + quantity_decimals <= 8),
  min_quantity numeric NOT NULL CHECK (min_quantity > 0),
  max_quantity numeric NOT NULL CHECK (max_quantity > 0),
  max_leverage integer NOT NULL CHECK (max_leverage BETWEEN 1 AND 100),
  funding_rate_cap numeric NOT NULL CHECK (funding_rate_cap > 0),
  tiers jsonb NOT NULL,
  status text NOT NULL DEFAULT 'trading' CHECK (status IN ('trading', 'halted')),
  sort_order integer NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE futures_settings (
  account_id uuid NOT NULL REFERENCES accounts(id),
  market_id text NOT NULL REFERENCES futures_markets(id),
  leverage integer NOT NULL DEFAULT 20 CHECK (leverage BETWEEN 1 AND 100),
  margin_mode text NOT NULL DEFAULT 'cross' CHECK (margin_mode IN ('cross', 'isolated')),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, market_id)
);

CREATE TABLE futures_positions (
  account_id uuid NOT NULL REFERENCES accounts(id),
  market_id text NOT NULL REFERENCES futures_markets(id),
  size_lots bigint NOT NULL DEFAULT 0,
  cost_tick_lots numeric NOT NULL DEFAULT 0 CHECK (cost_tick_lots >= 0),
  isolated_margin numeric NOT NULL DEFAULT 0 CHECK (isolated_margin >= 0),
  realised_pnl numeric NOT NULL DEFAULT 0,
  take_profit_price numeric CHECK (take_profit_price > 0),
  stop_loss_price numeric CHECK (stop_loss_price > 0),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, market_id),
  CHECK ((size_lots = 0) = (cost_tick_lots = 0))
);
CREATE INDEX futures_positions_open ON futures_positions (market_id) WHERE size_lots <> 0;

CREATE TABLE futures_orders (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id),
  market_id text NOT NULL REFERENCES futures_markets(id),
  client_order_id text,
  side text NOT NULL CHECK (side IN ('buy', 'sell')),
  type text NOT NULL CHECK (type IN ('market', 'limit', 'stop_market', 'stop_limit', 'take_profit_market', 'take_profit_limit')),
  time_in_force text NOT NULL CHECK (time_in_force IN ('GTC', 'IOC', 'FOK')),
  post_only boolean NOT NULL DEFAULT false,
  reduce_only boolean NOT NULL DEFAULT false,
  close_position boolean NOT NULL DEFAULT false,
  origin text NOT NULL DEFAULT 'user' CHECK (origin IN ('user', 'liquidation', 'adl', 'tpsl')),
  price numeric CHECK (price > 0),
  stop_price numeric CHECK (stop_price > 0),
  quantity numeric NOT NULL CHECK (quantity >= 0),
  filled_quantity numeric NOT NULL DEFAULT 0 CHECK (filled_quantity >= 0),
  filled_cost numeric NOT NULL DEFAULT 0 CHECK (filled_cost >= 0),
  fee numeric NOT NULL DEFAULT 0 CHECK (fee >= 0),
  realised_pnl numeric NOT NULL DEFAULT 0,
  order_margin numeric NOT NULL DEFAULT 0 CHECK (order_margin >= 0),
  take_profit_price numeric CHECK (take_profit_price > 0),
  stop_loss_price numeric CHECK (stop_loss_price > 0),
  status text NOT NULL CHECK (status IN ('pending', 'partial', 'filled', 'completed', 'cancelled', 'expired', 'rejected')),
  triggered boolean NOT NULL DEFAULT false,
  reject_reason text,
  sequence bigint,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX futures_orders_client_id ON futures_orders (account_id, client_order_id) WHERE client_order_id IS NOT NULL;
CREATE INDEX futures_orders_open ON futures_orders (market_id, sequence) WHERE status IN ('pending', 'partial');
CREATE INDEX futures_orders_account ON futures_orders (account_id, created_at DESC);

CREATE TABLE futures_fills (
  id text NOT NULL,
  order_id uuid NOT NULL REFERENCES futures_orders(id),
  account_id uuid NOT NULL REFERENCES accounts(id),
  market_id text NOT NULL REFERENCES futures_markets(id),
  side text NOT NULL CHECK (side IN ('buy', 'sell')),
  role text NOT NULL CHECK (role IN ('maker', 'taker')),
  price numeric NOT NULL CHECK (price > 0),
  quantity numeric NOT NULL CHECK (quantity > 0),
  fee numeric NOT NULL CHECK (fee >= 0),
  realised_pnl numeric NOT NULL,
  executed_at timestamptz NOT NULL,
  PRIMARY KEY (id, role)
);
CREATE INDEX futures_fills_account ON futures_fills (account_id, executed_at DESC);
CREATE INDEX futures_fills_market ON futures_fills (market_id, executed_at DESC);

CREATE TABLE futures_transfers (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id),
  client_transfer_id text,
  direction text NOT NULL CHECK (direction IN ('to_futures', 'to_spot')),
  amount numeric NOT NULL CHECK (amount > 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX futures_transfers_client_id ON futures_transfers (account_id, client_transfer_id)
  WHERE client_transfer_id IS NOT NULL;
CREATE INDEX futures_transfers_account ON futures_transfers (account_id, created_at DESC);

CREATE TABLE futures_income (
  id bigserial PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id),
  type text NOT NULL CHECK (type IN ('transfer', 'realised_pnl', 'fee', 'funding', 'liquidation_fee', 'insurance_clear', 'adl')),
  market_id text,
  amount numeric NOT NULL,
  reference text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX futures_income_account ON futures_income (account_id, created_at DESC, id DESC);

CREATE TABLE futures_funding_rounds (
  market_id text NOT NULL REFERENCES futures_markets(id),
  funding_time bigint NOT NULL,
  rate numeric NOT NULL,
  mark_price numeric NOT NULL CHECK (mark_price > 0),
  total_paid numeric NOT NULL CHECK (total_paid >= 0),
  total_received numeric NOT NULL CHECK (total_received >= 0),
  residual numeric NOT NULL CHECK (residual >= 0),
  positions integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (market_id, funding_time)
);

-- Every command the exchange applied, in order, written with its batch's effects.
CREATE TABLE futures_journal (
  sequence bigint PRIMARY KEY,
  kind text NOT NULL,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
