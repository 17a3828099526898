-- Stored notifications (spec §3.8, §4): the bell's list per account. The notifications module keeps
-- at most 100 per account (spec §9), deleting the oldest in the same transaction as each insert.
CREATE TABLE notifications (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  -- Insertion order: rows written by one batch share created_at, and "oldest" and "newest" must
  -- still be one well-defined order.
  seq bigint GENERATED ALWAYS AS IDENTITY,
  type text NOT NULL CHECK (type IN ('trade', 'order', 'deposit', 'withdrawal', 'price_alert', 'security', 'system')),
  title text NOT NULL,
  message text NOT NULL,
  severity text NOT NULL CHECK (severity IN ('success', 'info', 'warning', 'error')),
  action_url text,
  metadata jsonb NOT NULL DEFAULT '{}',
  is_read boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX notifications_account_newest ON notifications (account_id, created_at DESC, seq DESC);
