-- Per-account budgets of sign-in and 2FA attempts, shared by every node. An attempt is counted
-- (one atomic upsert) before its password or code is checked, so concurrent guesses cannot all
-- pass the check before any of them is counted.
CREATE TABLE auth_attempts (
  key text PRIMARY KEY,
  attempts integer NOT NULL CHECK (attempts >= 0),
  window_started_at timestamptz NOT NULL
);
CREATE INDEX auth_attempts_window_idx ON auth_attempts (window_started_at);

-- An operator can freeze an account (npm run freeze-account): its tokens stop working and it
-- cannot sign in until it is unfrozen.
ALTER TABLE accounts ADD COLUMN frozen_at timestamptz;
