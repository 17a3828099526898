import type {
  KycContentType,
  KycDocumentSlot,
  KycDocumentType,
  KycStatus,
  KycSubmissionFields,
  KycTier,
} from '@platform/contracts';
import type { Queryable } from '../../db/database.ts';

export type SubmissionRow = {
  id: string;
  account_id: string;
  status: KycStatus;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  date_of_birth: string;
  country: string;
  address: string;
  city: string;
  postal_code: string;
  document_type: KycDocumentType;
  document_number: string;
  reason: string | null;
  submitted_at: Date | string;
  reviewed_at: Date | string | null;
  reviewed_by: string | null;
  /** The account's current email, joined in for reviewers. */
  account_email: string | null;
};

export type DocumentRow = {
  submission_id: string;
  slot: KycDocumentSlot;
  storage_key: string;
  content_type: KycContentType;
  size_bytes: number;
};

export type NewDocument = { slot: KycDocumentSlot; key: string; contentType: KycContentType; sizeBytes: number };

// date_of_birth is read as text: a DATE through the drivers would become a Date at local midnight.
const SELECT_SUBMISSIONS = `SELECT s.id, s.account_id, s.status, s.first_name, s.last_name, s.email, s.phone,
    s.date_of_birth::text AS date_of_birth, s.country, s.address, s.city, s.postal_code, s.document_type,
    s.document_number, s.reason, s.submitted_at, s.reviewed_at, s.reviewed_by, a.email AS account_email
  FROM kyc_submissions s
  LEFT JOIN accounts a ON a.id = s.account_id`;

export async function selectSubmission(q: Queryable, id: string, lock = false): Promise<SubmissionRow | undefined> {
  const found = await q.query<SubmissionRow>(`${SELECT_SUBMISSIONS} WHERE s.id = $1${lock ? ' FOR UPDATE OF s' : ''}`, [
    id,
  ]);
  return found.rows[0];
}

export async function selectLatestSubmission(q: Queryable, accountId: string): Promise<SubmissionRow | undefined> {
  const found = await q.query<SubmissionRow>(
    `${SELECT_SUBMISSIONS} WHERE s.account_id = $1 ORDER BY s.submitted_at DESC, s.id DESC LIMIT 1`,
    [accountId],
  );
  return found.rows[0];
}

/** The review queue: pending ones oldest first (first come, first served), reviewed ones newest first. */
export async function selectSubmissionsByStatus(
  q: Queryable,
  status: KycStatus,
  limit: number,
  offset: number,
): Promise<{ rows: SubmissionRow[]; total: number }> {
  const order = status === 'pending' ? 's.submitted_at ASC, s.id ASC' : 's.reviewed_at DESC, s.id DESC';
  const [page, count] = await Promise.all([
    q.query<SubmissionRow>(`${SELECT_SUBMISSIONS} WHERE s.status = $1 ORDER BY ${order} LIMIT $2 OFFSET $3`, [
      status,
      limit,
      offset,
    ]),
    q.query<{ total: string }>('SELECT count(*)::text AS total FROM kyc_submissions WHERE status = $1', [status]),
  ]);
  return { rows: page.rows, total: Number(count.rows[0]?.total ?? 0) };
}

/** Whether the account has a submission under review (the unique index allows one at most). */
export async function hasPendingSubmission(q: Queryable, accountId: string): Promise<boolean> {
  const found = await q.query("SELECT 1 FROM kyc_submissions WHERE account_id = $1 AND status = 'pending'", [
    accountId,
  ]);
  return found.rowCount > 0;
}

export async function insertSubmission(
  q: Queryable,
  submission: { id: string; accountId: string; fields: KycSubmissionFields; submittedAt: Date },
  documents: readonly NewDocument[],
): Promise<void> {
  const { fields } = submission;
  await q.query(
    `INSERT INTO kyc_submissions (id, account_id, first_name, last_name, email, phone, date_of_birth, country,
       address, city, postal_code, document_type, document_number, submitted_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
    [
      submission.id,
      submission.accountId,
      fields.firstName,
      fields.lastName,
      fields.email,
      fields.phone,
      fields.dateOfBirth,
      fields.country,
      fields.address,
      fields.city,
      fields.postalCode,
      fields.documentType,
      fields.documentNumber,
      submission.submittedAt,
    ],
  );
  await q.query(
    `INSERT INTO kyc_documents (submission_id, slot, storage_key, content_type, size_bytes)
     SELECT $1, slot, storage_key, content_type, size_bytes
     FROM unnest($2::text[], $3::text[], $4::text[], $5::int[]) AS d (slot, storage_key, content_type, size_bytes)`,
    [
      submission.id,
      documents.map((document) => document.slot),
      documents.map((document) => document.key),
      documents.map((document) => document.contentType),
      documents.map((document) => document.sizeBytes),
    ],
  );
}

export async function selectDocuments(q: Queryable, submissionIds: readonly string[]): Promise<DocumentRow[]> {
  if (submissionIds.length === 0) return [];
  const found = await q.query<DocumentRow>(
    `SELECT submission_id, slot, storage_key, content_type, size_bytes FROM kyc_documents
     WHERE submission_id = ANY($1::uuid[]) ORDER BY submission_id, array_position($2::text[], slot)`,
    [submissionIds, ['documentFront', 'documentBack', 'selfie']],
  );
  return found.rows.map((row) => ({ ...row, size_bytes: Number(row.size_bytes) }));
}

export async function markReviewed(
  q: Queryable,
  review: {
    submissionId: string;
    status: 'approved' | 'rejected';
    reason: string | null;
    reviewerId: string;
    at: Date;
  },
): Promise<void> {
  await q.query(
    `UPDATE kyc_submissions SET status = $2, reason = $3, reviewed_by = $4, reviewed_at = $5
     WHERE id = $1 AND status = 'pending'`,
    [review.submissionId, review.status, review.reason, review.reviewerId, review.at],
  );
}

export async function insertReviewAudit(
  q: Queryable,
  audit: {
    id: string;
    submissionId: string;
    reviewerId: string;
    reviewerRole: 'admin' | 'compliance';
    decision: 'approve' | 'reject';
    reason: string | null;
    at: Date;
  },
): Promise<void> {
  await q.query(
    `INSERT INTO kyc_reviews (id, submission_id, reviewer_id, reviewer_role, decision, reason, reviewed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [audit.id, audit.submissionId, audit.reviewerId, audit.reviewerRole, audit.decision, audit.reason, audit.at],
  );
}

// ---------------------------------------------------------------------------------------------
// The two account columns this module answers for: kyc_tier (it sets it on approval) and role (it
// reads it to admit reviewers; the grant-role command sets it). Nothing else of `accounts`.
// ---------------------------------------------------------------------------------------------

export type AccountRole = 'user' | 'admin' | 'compliance';

/**
 * The account's tier and role, optionally locking its row: submissions and reviews of one account
 * take the lock first, so an approval and a new submission cannot interleave.
 */
export async function selectAccountKyc(
  q: Queryable,
  accountId: string,
  lock = false,
): Promise<{ tier: KycTier; role: AccountRole } | undefined> {
  const found = await q.query<{ kyc_tier: KycTier; role: AccountRole }>(
    `SELECT kyc_tier, role FROM accounts WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [accountId],
  );
  const row = found.rows[0];
  return row ? { tier: row.kyc_tier, role: row.role } : undefined;
}

export async function updateKycTier(q: Queryable, accountId: string, tier: KycTier, now: Date): Promise<void> {
  await q.query('UPDATE accounts SET kyc_tier = $2, updated_at = $3 WHERE id = $1', [accountId, tier, now]);
}

/** Sets the role of the account with this (lower-cased) email; the account's id, or null when there is none. */
export async function updateRoleByEmail(q: Queryable, email: string, role: AccountRole): Promise<string | null> {
  const found = await q.query<{ id: string }>(
    'UPDATE accounts SET role = $2, updated_at = now() WHERE email = $1 RETURNING id',
    [email, role],
  );
  return found.rows[0]?.id ?? null;
}
