-- What each journaled futures command read from outside the exchange's state (clock, marks, new
-- ids, its batch), so that a replay of the journal decides every command again exactly
-- (modules/futures/journal.ts, replay.ts). Rows written before this column have none: a replay
-- refuses them.
ALTER TABLE futures_journal ADD COLUMN inputs jsonb;
