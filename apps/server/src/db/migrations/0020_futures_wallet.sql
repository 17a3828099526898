-- A user's futures wallet: a third kind of ledger owner. Its USD balance backs the user's
-- perpetual positions (available: free collateral; locked: margin posted to isolated positions).
-- It is a user's money like the spot wallet (never negative, never allow_negative), kept apart so
-- that spot holds, balances and withdrawals never see it; money moves between the two wallets
-- only through a ledger entry (kind futures_transfer).
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_owner_kind_check;
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_owner_kind_check
  CHECK (owner_kind IN ('user', 'system', 'futures'));
ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_owner_check;
ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_owner_check CHECK (
  (owner_kind IN ('user', 'futures') AND account_id IS NOT NULL AND system_name IS NULL AND NOT allow_negative)
  OR (owner_kind = 'system' AND account_id IS NULL AND system_name ~ '^[a-z][a-z0-9_]{0,62}$')
);
CREATE UNIQUE INDEX ledger_accounts_futures_key ON ledger_accounts (account_id, currency) WHERE owner_kind = 'futures';
