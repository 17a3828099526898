-- A copy, for the analytics branch's tests, of the snapshots table another branch creates as
-- migration 0024 (one of the two is kept at merge). Analytics reads the daily rows: TWR and drawdown.
-- granularity is 'hour' or 'day'; net_flow is USD in minus out since the previous snapshot of that granularity.
CREATE TABLE portfolio_snapshots (
  account_id uuid,
  granularity text,
  at timestamptz,
  total_value numeric,
  spot_value numeric,
  futures_equity numeric,
  net_flow numeric,
  PRIMARY KEY (account_id, granularity, at)
);
