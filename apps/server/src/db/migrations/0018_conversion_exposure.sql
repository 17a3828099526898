-- Conversions' exposure limits (docs/conversions.md): each conversion records what it was worth in
-- USD at the reference price, and the limits sum the last minute's, per account and house-wide.
-- Conversions made before have no recorded value; they are long out of any window.
ALTER TABLE conversions ADD COLUMN usd_value numeric NOT NULL DEFAULT 0 CHECK (usd_value >= 0);
-- "Everything converted in the last minute", house-wide; per account, conversions_account_idx.
CREATE INDEX conversions_created_idx ON conversions (created_at);
