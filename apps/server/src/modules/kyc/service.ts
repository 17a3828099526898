import { randomUUID } from 'node:crypto';
import {
  DAILY_WITHDRAWAL_LIMITS_USD,
  documentTypeNeedsBack,
  type KycDocumentSlot,
  type KycReviewListQuery,
  type KycReviewListResponse,
  type KycReviewRequest,
  type KycReviewSubmission,
  type KycStatusResponse,
  type KycSubmission,
  type KycSubmissionFields,
  type KycSubmitResponse,
  type KycTier,
  kycSubmissionFieldsSchema,
  kycValidationTexts,
} from '@platform/contracts';
import type { ObjectStore, StoredObject } from '../../adapters/object-store/index.ts';
import { type Database, isUniqueViolation, type Queryable, type Transaction } from '../../db/database.ts';
import { transactionResult } from '../../db/transaction-result.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import type { Logger } from '../../logger.ts';
import type { PubSub } from '../../realtime/pubsub.ts';
import { type InsertNotifications, publishNotifications } from '../notifications/index.ts';
import {
  type AccountRole,
  type DocumentRow,
  hasPendingSubmission,
  insertReviewAudit,
  insertSubmission,
  markReviewed,
  type SubmissionRow,
  selectAccountKyc,
  selectDocuments,
  selectLatestSubmission,
  selectSubmission,
  selectSubmissionsByStatus,
  updateKycTier,
} from './queries.ts';
import { deleteDocuments, type Upload } from './uploads.ts';

export interface KycDeps {
  db: Database;
  store: ObjectStore;
  pubsub: PubSub;
  log: Logger;
  clock: () => Date;
  /** Stores notifications in a transaction (the notifications module's; it drops their unread counts). */
  insertNotifications: InsertNotifications;
}

/** Roles that review verifications. */
const REVIEWER_ROLES: ReadonlySet<AccountRole> = new Set(['compliance', 'admin']);
export const isReviewerRole = (role: AccountRole): role is 'compliance' | 'admin' => REVIEWER_ROLES.has(role);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DOCUMENT_NOT_FOUND = 'Document not found';

/** The tier of an account ('unverified' for an unknown id): the withdrawal limits follow it. */
export async function kycTierOf(q: Queryable, accountId: string): Promise<KycTier> {
  return (await selectAccountKyc(q, accountId))?.tier ?? 'unverified';
}

/** Spec §9-style limit of a tier, in USD (decimal string). */
export function dailyWithdrawalLimitUsd(tier: KycTier): string {
  return DAILY_WITHDRAWAL_LIMITS_USD[tier];
}

/** The account's role as stored now (a role granted or taken away counts at once, whatever the token says). */
export async function roleOf(q: Queryable, accountId: string): Promise<AccountRole | undefined> {
  return (await selectAccountKyc(q, accountId))?.role;
}

// ---------------------------------------------------------------------------------------------
// Submission
// ---------------------------------------------------------------------------------------------

/**
 * Refuses before the body is read when the account cannot submit: a submission is under review
 * (KYC_ALREADY_PENDING) or the account is verified (KYC_ALREADY_APPROVED). The transaction that
 * records a submission checks both again.
 */
export async function canSubmit(q: Queryable, accountId: string, lock = false): Promise<Result<void>> {
  const account = await selectAccountKyc(q, accountId, lock);
  if (!account) return fail('UNAUTHORIZED');
  if (account.tier === 'verified') return fail('KYC_ALREADY_APPROVED');
  if (await hasPendingSubmission(q, accountId)) return fail('KYC_ALREADY_PENDING');
  return ok(undefined);
}

/** The §5 field rules on the text fields, and the documents each document type needs. */
function validateUpload(upload: Upload): Result<KycSubmissionFields> {
  const parsed = kycSubmissionFieldsSchema.safeParse(Object.fromEntries(upload.fields));
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));
    return fail('VALIDATION_ERROR', { message: issues[0]?.message, details: { issues } });
  }
  const slots = new Set(upload.documents.map((document) => document.slot));
  const missing: { path: KycDocumentSlot; message: string }[] = [];
  if (!slots.has('documentFront')) {
    missing.push({ path: 'documentFront', message: kycValidationTexts.documentFrontRequired });
  }
  if (documentTypeNeedsBack(parsed.data.documentType) && !slots.has('documentBack')) {
    missing.push({ path: 'documentBack', message: kycValidationTexts.documentBackRequired });
  }
  if (missing.length > 0) {
    return fail('VALIDATION_ERROR', { message: missing[0]?.message, details: { issues: missing } });
  }
  return ok(parsed.data);
}

/**
 * Records a received upload as a pending submission, in one transaction that locks the account's
 * row (so an approval and a new submission of one account never interleave). Whatever is refused,
 * the stored files are deleted again: a refused submission leaves neither row nor file.
 */
export async function recordSubmission(
  deps: KycDeps,
  accountId: string,
  upload: Upload,
): Promise<Result<KycSubmitResponse>> {
  const recorded = await recordValidSubmission(deps, accountId, upload).catch(async (error: unknown) => {
    await deleteRefusedDocuments(deps, accountId, upload);
    throw error;
  });
  if (!recorded.ok) await deleteRefusedDocuments(deps, accountId, upload);
  return recorded;
}

async function recordValidSubmission(
  deps: KycDeps,
  accountId: string,
  upload: Upload,
): Promise<Result<KycSubmitResponse>> {
  const fields = validateUpload(upload);
  if (!fields.ok) return fields;
  const id = randomUUID();
  const submittedAt = deps.clock();
  const recorded = await transactionResult(deps.db, async (tx) => {
    const allowed = await canSubmit(tx, accountId, true);
    if (!allowed.ok) return allowed;
    try {
      await insertSubmission(tx, { id, accountId, fields: fields.value, submittedAt }, upload.documents);
    } catch (error) {
      if (isUniqueViolation(error, 'kyc_submissions_one_pending')) return fail('KYC_ALREADY_PENDING');
      throw error;
    }
    return ok(undefined);
  });
  if (!recorded.ok) return recorded;
  deps.log.info({ accountId, submissionId: id, documents: upload.documents.length }, 'kyc submission received');
  return ok({ id, status: 'pending', submitted_at: submittedAt.toISOString() });
}

async function deleteRefusedDocuments(deps: KycDeps, accountId: string, upload: Upload): Promise<void> {
  await deleteDocuments(deps.store, upload.documents).catch((cleanupError: unknown) =>
    deps.log.error({ err: cleanupError, accountId }, 'kyc: could not delete the files of a refused submission'),
  );
}

// ---------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------

/** Characters of a document number its owner sees: enough to tell two documents apart, too few to use one. */
const SHOWN_DOCUMENT_CHARACTERS = 4;

/** All but the last 4 characters hidden ('AB1234567' -> '*****4567'). */
export function maskDocumentNumber(documentNumber: string): string {
  const shown = Math.min(SHOWN_DOCUMENT_CHARACTERS, Math.max(0, documentNumber.length - 1));
  return '*'.repeat(documentNumber.length - shown) + documentNumber.slice(documentNumber.length - shown);
}

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

function toSubmission(row: SubmissionRow, documents: readonly DocumentRow[], masked: boolean): KycSubmission {
  return {
    id: row.id,
    status: row.status,
    reason: row.reason,
    submitted_at: new Date(row.submitted_at).toISOString(),
    reviewed_at: iso(row.reviewed_at),
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    phone: row.phone,
    date_of_birth: row.date_of_birth,
    country: row.country,
    address: row.address,
    city: row.city,
    postal_code: row.postal_code,
    document_type: row.document_type,
    document_number: masked ? maskDocumentNumber(row.document_number) : row.document_number,
    documents: documents.filter((document) => document.submission_id === row.id).map((document) => document.slot),
  };
}

function toReviewSubmission(row: SubmissionRow, documents: readonly DocumentRow[]): KycReviewSubmission {
  return {
    ...toSubmission(row, documents, false),
    account_id: row.account_id,
    account_email: row.account_email,
    reviewed_by: row.reviewed_by,
    document_files: documents
      .filter((document) => document.submission_id === row.id)
      .map((document) => ({
        slot: document.slot,
        content_type: document.content_type,
        size_bytes: document.size_bytes,
        url: `/api/v1/compliance/kyc/${row.id}/documents/${document.slot}`,
      })),
  };
}

/**
 * GET /v1/triple-a/kyc/{id}: the owner sees it with the document number masked, a reviewer sees it
 * whole; to anyone else it does not exist (KYC_NOT_FOUND, not FORBIDDEN: ids are not confirmed).
 */
export async function getSubmission(deps: KycDeps, viewerId: string, id: string): Promise<Result<KycSubmission>> {
  const row = UUID.test(id) ? await selectSubmission(deps.db, id) : undefined;
  if (!row) return fail('KYC_NOT_FOUND');
  const isOwner = row.account_id === viewerId;
  if (!isOwner) {
    const role = await roleOf(deps.db, viewerId);
    if (!role || !isReviewerRole(role)) return fail('KYC_NOT_FOUND');
  }
  return ok(toSubmission(row, await selectDocuments(deps.db, [row.id]), isOwner));
}

/** GET /api/v1/kyc/status. */
export async function kycStatus(deps: KycDeps, accountId: string): Promise<KycStatusResponse> {
  const [tier, latest] = await Promise.all([kycTierOf(deps.db, accountId), selectLatestSubmission(deps.db, accountId)]);
  const documents = latest ? await selectDocuments(deps.db, [latest.id]) : [];
  return {
    tier,
    latest_submission: latest ? toSubmission(latest, documents, true) : null,
    daily_withdrawal_limit_usd: dailyWithdrawalLimitUsd(tier),
    can_submit: tier !== 'verified' && latest?.status !== 'pending',
  };
}

// ---------------------------------------------------------------------------------------------
// Review (the routes admit compliance and admin roles only)
// ---------------------------------------------------------------------------------------------

export async function listForReview(deps: KycDeps, query: KycReviewListQuery): Promise<KycReviewListResponse> {
  const { rows, total } = await selectSubmissionsByStatus(
    deps.db,
    query.status,
    query.limit,
    (query.page - 1) * query.limit,
  );
  return {
    submissions: rows.map((row) => ({
      id: row.id,
      account_id: row.account_id,
      account_email: row.account_email,
      status: row.status,
      first_name: row.first_name,
      last_name: row.last_name,
      country: row.country,
      document_type: row.document_type,
      submitted_at: new Date(row.submitted_at).toISOString(),
      reviewed_at: iso(row.reviewed_at),
    })),
    total,
    page: query.page,
    limit: query.limit,
  };
}

export async function getForReview(q: Queryable, id: string): Promise<Result<KycReviewSubmission>> {
  const row = UUID.test(id) ? await selectSubmission(q, id) : undefined;
  if (!row) return fail('KYC_NOT_FOUND');
  return ok(toReviewSubmission(row, await selectDocuments(q, [row.id])));
}

/** One stored document of a submission, with its content type as sniffed at upload. */
export async function getDocument(
  deps: KycDeps,
  id: string,
  slot: KycDocumentSlot,
): Promise<Result<{ document: DocumentRow; object: StoredObject }>> {
  const row = UUID.test(id) ? await selectSubmission(deps.db, id) : undefined;
  if (!row) return fail('KYC_NOT_FOUND');
  const document = (await selectDocuments(deps.db, [id])).find((candidate) => candidate.slot === slot);
  if (!document) return fail('KYC_NOT_FOUND', { message: DOCUMENT_NOT_FOUND });
  const object = await deps.store.get(document.storage_key);
  if (!object) {
    deps.log.error({ submissionId: id, slot }, 'kyc: a recorded document is missing from the object store');
    return fail('KYC_NOT_FOUND', { message: DOCUMENT_NOT_FOUND });
  }
  return ok({ document, object });
}

/**
 * POST /api/v1/compliance/kyc/{id}/review: approves or rejects a pending submission once. In one
 * transaction: the account's row locked (before the submission's, in the order submissions take
 * them), the submission marked, on approval the account's tier set to verified, an audit row
 * written and the account's notification stored; the notification is pushed after commit.
 * Reviewers do not review their own submission.
 */
export async function reviewSubmission(
  deps: KycDeps,
  reviewer: { id: string; role: 'compliance' | 'admin' },
  id: string,
  request: KycReviewRequest,
): Promise<Result<KycReviewSubmission>> {
  const found = UUID.test(id) ? await selectSubmission(deps.db, id) : undefined;
  if (!found) return fail('KYC_NOT_FOUND');
  if (found.account_id === reviewer.id) {
    return fail('FORBIDDEN', { message: 'You cannot review your own verification' });
  }
  const review: Review = {
    reviewer,
    submissionId: id,
    decision: request.decision,
    reason: request.reason && request.reason.length > 0 ? request.reason : null,
    at: deps.clock(),
  };
  const reviewed = await transactionResult(deps.db, async (tx) => {
    await selectAccountKyc(tx, found.account_id, true);
    const row = await selectSubmission(tx, id, true);
    if (!row) return fail('KYC_NOT_FOUND');
    if (row.status !== 'pending') return fail('KYC_NOT_PENDING');
    await recordReview(deps, tx, row.account_id, review);
    return ok(undefined);
  });
  if (!reviewed.ok) return reviewed;
  deps.log.info({ submissionId: id, reviewerId: reviewer.id, decision: request.decision }, 'kyc reviewed');
  return getForReview(deps.db, id);
}

type Review = {
  reviewer: { id: string; role: 'compliance' | 'admin' };
  submissionId: string;
  decision: KycReviewRequest['decision'];
  reason: string | null;
  at: Date;
};

/** The writes of one review, inside its transaction (the submission is locked and pending). */
async function recordReview(deps: KycDeps, tx: Transaction, accountId: string, review: Review): Promise<void> {
  const approve = review.decision === 'approve';
  const { reviewer, submissionId, reason, at } = review;
  await markReviewed(tx, {
    submissionId,
    status: approve ? 'approved' : 'rejected',
    // An approval's note stays in the audit trail; the submission's reason says why it was rejected.
    reason: approve ? null : reason,
    reviewerId: reviewer.id,
    at,
  });
  if (approve) await updateKycTier(tx, accountId, 'verified', at);
  await insertReviewAudit(tx, {
    id: randomUUID(),
    submissionId,
    reviewerId: reviewer.id,
    reviewerRole: reviewer.role,
    decision: review.decision,
    reason,
    at,
  });
  const notifications = await deps.insertNotifications(tx, [
    {
      accountId,
      type: 'system',
      title: 'Identity verification',
      message: approve ? 'Verification approved' : `Verification rejected: ${reason ?? ''}`,
      severity: approve ? 'success' : 'warning',
      actionUrl: '/wallet',
      // The reviewer's reason is free text: it reaches the client as written.
      textKey: approve ? 'kycApproved' : 'kycRejected',
      params: approve ? {} : { reason: reason ?? '' },
      metadata: {},
      createdAt: at,
    },
  ]);
  tx.afterCommit(() => publishNotifications(deps.pubsub, notifications));
}
