-- Portfolio value snapshots (issue 17, docs/portfolio.md "Snapshots and value over time"): every
-- account with a balance is valued at each top of the UTC hour ('hour') and at 00:00 UTC ('day').
-- Written only with ON CONFLICT DO NOTHING, so a restart or a second server never writes a bucket
-- twice. Hourly rows are kept for PORTFOLIO_HOURLY_RETENTION_DAYS (8 by default), daily rows forever.
CREATE TABLE portfolio_snapshots (
  account_id uuid NOT NULL REFERENCES accounts (id),
  granularity text NOT NULL CHECK (granularity IN ('hour', 'day')),
  at timestamptz NOT NULL,          -- the moment valued: top of the UTC hour, or 00:00 UTC for 'day'
  total_value numeric NOT NULL,     -- USD: spot_value + futures_equity
  spot_value numeric NOT NULL,      -- USD: spot balances (available + locked) x USD prices
  futures_equity numeric NOT NULL,  -- USD: futures wallet balance + unrealised P&L at the mark
  net_flow numeric NOT NULL,        -- USD value of money that came in minus went out of the account (deposits, withdrawals, transfers with other users) since the previous snapshot of the same granularity (at its recorded price); trades, conversions, fees and spot<->futures moves are not flows
  PRIMARY KEY (account_id, granularity, at)
);

-- The hourly pruning deletes by (granularity, at) across every account.
CREATE INDEX portfolio_snapshots_pruning_idx ON portfolio_snapshots (granularity, at);

-- The recorder reads the flows (deposits, withdrawals, transfers between users) of the last bucket
-- across every account: without this, each run would scan the whole ledger_entries table.
CREATE INDEX ledger_entries_flows_idx ON ledger_entries (created_at) WHERE kind IN ('deposit', 'withdrawal', 'transfer');
