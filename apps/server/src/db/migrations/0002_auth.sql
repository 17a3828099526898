-- Rotating refresh tokens. Only a SHA-256 hash of each token is kept, so a leaked table signs no
-- one in. Tokens of one sign-in share a family: presenting a used token revokes the whole family.
CREATE TABLE refresh_tokens (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  family_id uuid NOT NULL,
  token_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  revoked_at timestamptz
);
CREATE UNIQUE INDEX refresh_tokens_token_hash_key ON refresh_tokens (token_hash);
CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id);
CREATE INDEX refresh_tokens_account_idx ON refresh_tokens (account_id);

-- Wallet sign-in challenges: single-use nonces, each with the exact message the wallet must sign.
CREATE TABLE wallet_challenges (
  nonce text PRIMARY KEY,
  wallet_address text NOT NULL,
  wallet_type text NOT NULL CHECK (wallet_type IN ('ethereum', 'solana')),
  message text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz
);
CREATE INDEX wallet_challenges_expires_at_idx ON wallet_challenges (expires_at);

-- Email verification links. The token proves the address it was sent to, so a link mailed before
-- an email change cannot verify the new address.
CREATE TABLE email_verification_tokens (
  token_hash text PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  email text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX email_verification_tokens_account_idx ON email_verification_tokens (account_id);
