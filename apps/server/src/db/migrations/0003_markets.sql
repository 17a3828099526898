-- Markets: the coin catalogue, the trading pairs and their candles (spec §3.5, §3.6).
-- Seeded at start from packages/contracts/src/coins.ts (idempotent: ON CONFLICT DO NOTHING).

CREATE TABLE coins (
  code text PRIMARY KEY,
  name text NOT NULL,
  symbol text NOT NULL,
  network text,
  type text NOT NULL CHECK (type IN ('stable', 'major', 'layer2', 'meme', 'defi', 'altcoin')),
  category text NOT NULL CHECK (category IN ('popular', 'stable', 'other')),
  description text NOT NULL,
  is_enabled boolean NOT NULL DEFAULT true,
  sort_order integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX coins_symbol_idx ON coins (symbol);

CREATE TABLE trading_pairs (
  id text PRIMARY KEY,
  base_currency text NOT NULL,
  quote_currency text NOT NULL,
  symbol text NOT NULL UNIQUE,
  min_trade_amount numeric NOT NULL CHECK (min_trade_amount > 0),
  max_trade_amount numeric NOT NULL CHECK (max_trade_amount >= min_trade_amount),
  price_precision integer NOT NULL CHECK (price_precision BETWEEN 0 AND 18),
  quantity_precision integer NOT NULL CHECK (quantity_precision BETWEEN 0 AND 18),
  trading_fee numeric NOT NULL CHECK (trading_fee >= 0),
  maker_fee numeric NOT NULL CHECK (maker_fee >= 0),
  taker_fee numeric NOT NULL CHECK (taker_fee >= 0),
  is_active boolean NOT NULL DEFAULT true,
  is_enabled_by_admin boolean NOT NULL DEFAULT true,
  supported_by_provider boolean NOT NULL DEFAULT false,
  sort_order integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (base_currency, quote_currency),
  CHECK (base_currency <> quote_currency)
);

-- Candles of the stored intervals (1m, 1h, 1d); coarser ones are aggregated on read. History is
-- kept for the USD pairs; other quotes are derived from two USD series (see modules/markets).
CREATE TABLE candles (
  pair_id text NOT NULL,
  interval text NOT NULL CHECK (interval IN ('1m', '5m', '15m', '1h', '4h', '1d', '1w')),
  open_time timestamptz NOT NULL,
  open numeric NOT NULL CHECK (open > 0),
  high numeric NOT NULL,
  low numeric NOT NULL CHECK (low > 0),
  close numeric NOT NULL CHECK (close > 0),
  volume numeric NOT NULL CHECK (volume >= 0),
  PRIMARY KEY (pair_id, interval, open_time),
  CHECK (high >= open AND high >= close AND high >= low),
  CHECK (low <= open AND low <= close)
);
