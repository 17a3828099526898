-- Notifications in the reader's language (docs/i18n.md "Server texts"): beside the English title and
-- message (kept for API users), a stable text key (the client shows notices.<key>.title / .message)
-- and its parameters as raw values (decimal strings, currency codes, pair ids, side and type codes).
-- Rows written before this have no key; clients show their stored English.
ALTER TABLE notifications ADD COLUMN text_key text CHECK (text_key ~ '^[a-zA-Z]{1,64}$');
ALTER TABLE notifications ADD COLUMN params jsonb NOT NULL DEFAULT '{}';
