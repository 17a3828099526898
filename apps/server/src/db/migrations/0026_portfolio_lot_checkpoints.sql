-- Checkpoints of the portfolio's lot cache (docs/portfolio.md "The lot cache", "Checkpoints"): per
-- account and lot method, the lot books of every asset as the cache last saved them and the ledger
-- cursor they stop at, so a server that starts (or dropped the account) reads this row and only
-- the movements after the cursor instead of the account's whole history. A cache, not a record:
-- a row may be deleted at any time (the next request rebuilds from the ledger and writes it again).
CREATE TABLE portfolio_lot_checkpoints (
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  method text NOT NULL CHECK (method IN ('fifo', 'lifo', 'hifo')),
  format_version integer NOT NULL,     -- the layout of books; another version is ignored and rebuilt
  books bytea NOT NULL,                -- gzip of JSON: per asset, the engine's LotBook snapshot and the feed's clock
  movement_cursor jsonb NOT NULL,      -- per currency, the largest ledger posting id the books contain (wallet.movements)
  events bigint NOT NULL CHECK (events >= 0), -- lot events applied to the books (over every asset)
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, method)
);
