-- Accounts and everything sign-in needs. Emails are stored lower-cased; usernames are unique
-- without regard to case.
CREATE TABLE accounts (
  id uuid PRIMARY KEY,
  email text NOT NULL,
  password_hash text,
  first_name text NOT NULL,
  last_name text NOT NULL,
  phone text,
  role text NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'admin')),
  email_verified_at timestamptz,
  terms_accepted_at timestamptz NOT NULL,
  marketing_consent boolean NOT NULL DEFAULT false,
  wallet_address text,
  wallet_type text CHECK (wallet_type IN ('ethereum', 'solana')),
  totp_secret text,
  totp_pending_secret text,
  totp_enabled_at timestamptz,
  totp_last_used_step bigint,
  display_name text,
  username text,
  bio text,
  location text,
  website text,
  trading_experience text CHECK (trading_experience IN ('lt1', '1-2', '3-5', '5+', '10+')),
  private_profile boolean NOT NULL DEFAULT false,
  allow_copy_trading boolean NOT NULL DEFAULT false,
  copy_trading_fee_percent numeric(5, 2) NOT NULL DEFAULT 0 CHECK (copy_trading_fee_percent >= 0 AND copy_trading_fee_percent <= 50),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- A wallet account signs in by signature only: it has no password hash at all.
  CHECK ((wallet_address IS NULL) = (wallet_type IS NULL))
);
CREATE UNIQUE INDEX accounts_email_key ON accounts (email);
CREATE UNIQUE INDEX accounts_username_key ON accounts (lower(username));
CREATE UNIQUE INDEX accounts_wallet_key ON accounts (wallet_type, wallet_address);
