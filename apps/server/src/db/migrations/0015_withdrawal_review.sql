-- A payout whose earlier attempt may have reached a provider that does not recognise a repeated
-- reference is never sent again by itself: it waits for a person (docs/withdrawals.md, "Payouts
-- whose outcome is unknown"). in_flight_since marks an attempt under way, cleared when its outcome
-- is recorded; a claim that finds it still set knows the previous attempt ended unrecorded.
ALTER TABLE withdrawals ADD COLUMN in_flight_since timestamptz;
ALTER TABLE withdrawals ADD COLUMN review_reason text;
CREATE INDEX withdrawals_review_idx ON withdrawals (created_at) WHERE review_reason IS NOT NULL;
