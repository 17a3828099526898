-- The user's favourite trading pairs, in the user's order. Pair ids are not a foreign key:
-- trading pairs belong to the markets module, which is asked whether a pair exists on write.
CREATE TABLE watchlist_entries (
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  position integer NOT NULL CHECK (position >= 0),
  pair_id text NOT NULL,
  PRIMARY KEY (account_id, position),
  UNIQUE (account_id, pair_id)
);
