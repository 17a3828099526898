-- The account's portfolio settings (docs/portfolio.md "Lot method preference"): the lot method
-- of its cost basis. One row per account that chose; no row reads as fifo, the default.
CREATE TABLE portfolio_settings (
  account_id uuid PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  lot_method text NOT NULL CHECK (lot_method IN ('fifo', 'lifo', 'hifo')),
  updated_at timestamptz NOT NULL DEFAULT now()
);
