-- Account security (docs/auth.md, "Account security"): password reset links, 2FA recovery codes,
-- the devices of sessions, and the session version that voids access tokens.

-- Password reset links: only a SHA-256 hash of each token is kept; single use, short-lived. The
-- email is the address the link was mailed to, so a link outlives no change of address.
CREATE TABLE password_reset_tokens (
  token_hash text PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  email text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX password_reset_tokens_account_idx ON password_reset_tokens (account_id);

-- Single-use 2FA recovery codes, stored as SHA-256 hashes (50 random bits each, behind the
-- per-account failure limits). Renewing or turning 2FA off deletes them.
CREATE TABLE two_factor_recovery_codes (
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  used_at timestamptz,
  PRIMARY KEY (account_id, code_hash)
);

-- What the user sees of a session (one refresh-token family): the device and address it began on.
CREATE TABLE session_devices (
  family_id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  user_agent text,
  ip text,
  created_at timestamptz NOT NULL
);
CREATE INDEX session_devices_account_idx ON session_devices (account_id);

-- Access tokens carry the account's session version when minted (claim `sv`); raising it voids
-- every access token issued before, at the next request (password change or reset, ending sessions).
ALTER TABLE accounts ADD COLUMN session_version integer NOT NULL DEFAULT 0;
