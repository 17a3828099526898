-- A copy, for the analytics branch's tests, of the snapshots table another branch creates as
-- migration 0024 (one of the two is kept at merge). Analytics reads the daily rows: TWR and drawdown.
CREATE TABLE portfolio_snapshots (
  account_id uuid NOT NULL,
  granularity text NOT NULL CHECK (granularity IN ('hour', 'day')),
  at timestamptz NOT NULL,
  total_value numeric NOT NULL,
  spot_value numeric NOT NULL,
  futures_equity numeric NOT NULL,
  net_flow numeric NOT NULL,
  PRIMARY KEY (account_id, granularity, at)
);
