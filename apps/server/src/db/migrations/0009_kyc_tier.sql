-- KYC tier of an account (contracts/kyc.ts): 'verified' once a compliance reviewer approved its
-- verification; the withdrawal limits follow it. And the compliance role that reviews.
ALTER TABLE accounts ADD COLUMN kyc_tier text NOT NULL DEFAULT 'unverified'
  CHECK (kyc_tier IN ('unverified', 'verified'));
ALTER TABLE accounts DROP CONSTRAINT IF EXISTS accounts_role_check;
ALTER TABLE accounts ADD CONSTRAINT accounts_role_check CHECK (role IN ('user', 'admin', 'compliance'));
