-- KYC verification (spec §2.7, §3.4; docs/kyc.md). A submission is reviewed once: pending until a
-- compliance reviewer approves or rejects it. The uploaded files live in the object store; a row
-- here names each one by a server-made key.
CREATE TABLE kyc_submissions (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
  first_name text NOT NULL,
  last_name text NOT NULL,
  email text NOT NULL,
  phone text NOT NULL,
  date_of_birth date NOT NULL,
  country text NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
  address text NOT NULL,
  city text NOT NULL,
  postal_code text NOT NULL,
  document_type text NOT NULL CHECK (document_type IN ('passport', 'drivers_license', 'national_id')),
  document_number text NOT NULL,
  reason text,
  submitted_at timestamptz NOT NULL,
  reviewed_at timestamptz,
  reviewed_by uuid REFERENCES accounts (id),
  -- Reviewed exactly when no longer pending; a rejection always says why.
  CHECK ((status = 'pending') = (reviewed_at IS NULL)),
  CHECK ((status = 'pending') = (reviewed_by IS NULL)),
  CHECK (status <> 'rejected' OR reason IS NOT NULL)
);
-- One submission under review per account at a time: two racing submissions cannot both land.
CREATE UNIQUE INDEX kyc_submissions_one_pending ON kyc_submissions (account_id) WHERE status = 'pending';
CREATE INDEX kyc_submissions_account_newest ON kyc_submissions (account_id, submitted_at DESC);
-- The review queue: oldest pending first.
CREATE INDEX kyc_submissions_queue ON kyc_submissions (status, submitted_at, id);

-- The files of a submission, one per slot. Only PNG and JPEG (recognised by content) are stored.
CREATE TABLE kyc_documents (
  submission_id uuid NOT NULL REFERENCES kyc_submissions (id) ON DELETE CASCADE,
  slot text NOT NULL CHECK (slot IN ('documentFront', 'documentBack', 'selfie')),
  storage_key text NOT NULL UNIQUE CHECK (storage_key ~ '^[A-Za-z0-9_-]{1,128}$'),
  content_type text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg')),
  size_bytes integer NOT NULL CHECK (size_bytes > 0 AND size_bytes <= 10485760),
  PRIMARY KEY (submission_id, slot)
);

-- Audit trail of reviews: who decided what, when and why. Rows are only ever inserted.
CREATE TABLE kyc_reviews (
  id uuid PRIMARY KEY,
  submission_id uuid NOT NULL REFERENCES kyc_submissions (id) ON DELETE CASCADE,
  reviewer_id uuid NOT NULL REFERENCES accounts (id),
  reviewer_role text NOT NULL CHECK (reviewer_role IN ('admin', 'compliance')),
  decision text NOT NULL CHECK (decision IN ('approve', 'reject')),
  reason text,
  reviewed_at timestamptz NOT NULL
);
CREATE INDEX kyc_reviews_submission ON kyc_reviews (submission_id, reviewed_at);
