import { z } from 'zod';

/**
 * KYC tiers and what they allow (spec §2.7, §3.4, §9). An account is 'unverified' until a
 * compliance reviewer approves its verification; verified accounts get the higher limits.
 */
export const KYC_TIERS = ['unverified', 'verified'] as const;
export type KycTier = (typeof KYC_TIERS)[number];

/**
 * Most an account may withdraw per rolling 24 hours, in USD at the reference price of the moment
 * of each withdrawal (decimal strings; exact).
 */
export const DAILY_WITHDRAWAL_LIMITS_USD: Readonly<Record<KycTier, string>> = {
  unverified: '2000',
  verified: '100000',
};

// ---------------------------------------------------------------------------------------------
// Submission (POST /v1/triple-a/kyc/submit, multipart/form-data; spec §3.4, §5, §7.4, §9)
// ---------------------------------------------------------------------------------------------

/** Spec §9: "KYC upload limit 10MB", read as 10 MiB per file. */
export const KYC_MAX_FILE_BYTES = 10 * 1024 * 1024;
/** Spec §5: PNG or JPG, recognised by the file's content (its magic bytes), never by its name. */
export const KYC_ALLOWED_CONTENT_TYPES = ['image/png', 'image/jpeg'] as const;
export type KycContentType = (typeof KYC_ALLOWED_CONTENT_TYPES)[number];

/** The file parts of a submission, by their multipart field names (§3.4). */
export const KYC_DOCUMENT_SLOTS = ['documentFront', 'documentBack', 'selfie'] as const;
export type KycDocumentSlot = (typeof KYC_DOCUMENT_SLOTS)[number];

/**
 * §3.4 document types. The wire value is the snake_case name; the spec's own spellings
 * ("driver's license", "national ID", any case) are accepted on input and mapped to it.
 * A passport has one page that matters, so documentBack is required for the other two only.
 */
export const KYC_DOCUMENT_TYPES = ['passport', 'drivers_license', 'national_id'] as const;
export type KycDocumentType = (typeof KYC_DOCUMENT_TYPES)[number];
export const documentTypeNeedsBack = (documentType: KycDocumentType): boolean => documentType !== 'passport';

/** "Driver's License", "drivers-license", "national ID" -> drivers_license, national_id. */
export function normalizeDocumentType(raw: string): string {
  return raw
    .trim()
    .toLowerCase()
    .replace(/[’']/g, '')
    .replace(/[\s-]+/g, '_');
}

export const KYC_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];

/** The youngest a verified account holder may be. */
export const KYC_MIN_AGE_YEARS = 18;
export const KYC_REVIEW_REASON_MIN_LENGTH = 3;
export const KYC_REVIEW_REASON_MAX_LENGTH = 500;

/** English texts of the KYC field rules (the schemas carry these directly; §5 wording where it has one). */
export const kycValidationTexts = {
  firstNameRequired: 'First name is required',
  firstNameMin: 'First name must be at least 2 characters',
  lastNameRequired: 'Last name is required',
  lastNameMin: 'Last name must be at least 2 characters',
  nameTooLong: 'Name must be at most 50 characters',
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email address',
  phoneRequired: 'Phone is required',
  phoneInvalid: 'Invalid phone number',
  dateOfBirthRequired: 'Date of birth is required',
  dateOfBirthInvalid: 'Date of birth must be a real date (YYYY-MM-DD)',
  dateOfBirthUnderAge: 'You must be at least 18 years old',
  countryRequired: 'Country is required',
  countryInvalid: 'Country must be a 2-letter code',
  addressRequired: 'Address is required',
  addressTooLong: 'Address must be at most 200 characters',
  cityRequired: 'City is required',
  cityTooLong: 'City must be at most 100 characters',
  postalCodeRequired: 'Postal code is required',
  postalCodeInvalid: 'Postal code must be at most 20 letters, digits, spaces or dashes',
  documentTypeRequired: 'Document type is required',
  documentTypeInvalid: "Document type must be passport, driver's license or national ID",
  documentNumberRequired: 'Document number is required',
  documentNumberInvalid: 'Document number must be 5 to 40 letters, digits or dashes',
  documentFrontRequired: 'Document front is required',
  documentBackRequired: 'Document back is required',
  reasonRequired: 'A reason is required when rejecting',
  reasonLength: 'Reason must be 3 to 500 characters',
} as const;
const t = kycValidationTexts;

const requiredText = (required: string, max: number, tooLong: string) =>
  z.string({ error: required }).trim().min(1, { error: required }).max(max, { error: tooLong });

/** Whole years between a YYYY-MM-DD date and `now` (UTC calendar). */
export function ageInYears(dateOfBirth: string, now: Date): number {
  const [year, month, day] = dateOfBirth.split('-').map(Number) as [number, number, number];
  let age = now.getUTCFullYear() - year;
  const beforeBirthday = now.getUTCMonth() + 1 < month || (now.getUTCMonth() + 1 === month && now.getUTCDate() < day);
  if (beforeBirthday) age--;
  return age;
}

/** A real calendar date written YYYY-MM-DD (no 2001-02-30), not before 1900. */
export function isRealDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    year >= 1900 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

/**
 * The text fields of a submission (§3.4 names, camelCase as the form sends them). The server and the
 * web form parse with the same schema; the age check reads the clock at parse time.
 */
export const kycSubmissionFieldsSchema = z.object({
  firstName: requiredText(t.firstNameRequired, 50, t.nameTooLong).min(2, { error: t.firstNameMin }),
  lastName: requiredText(t.lastNameRequired, 50, t.nameTooLong).min(2, { error: t.lastNameMin }),
  email: requiredText(t.emailRequired, 254, t.emailInvalid)
    .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { error: t.emailInvalid })
    .transform((email) => email.toLowerCase()),
  phone: requiredText(t.phoneRequired, 32, t.phoneInvalid).regex(/^\+?[0-9][0-9 ()-]{5,30}$/, {
    error: t.phoneInvalid,
  }),
  dateOfBirth: requiredText(t.dateOfBirthRequired, 10, t.dateOfBirthInvalid)
    .refine(isRealDate, { error: t.dateOfBirthInvalid, abort: true })
    .refine((value) => ageInYears(value, new Date()) >= KYC_MIN_AGE_YEARS, { error: t.dateOfBirthUnderAge }),
  country: requiredText(t.countryRequired, 2, t.countryInvalid)
    .regex(/^[A-Za-z]{2}$/, { error: t.countryInvalid })
    .transform((country) => country.toUpperCase()),
  address: requiredText(t.addressRequired, 200, t.addressTooLong),
  city: requiredText(t.cityRequired, 100, t.cityTooLong),
  postalCode: requiredText(t.postalCodeRequired, 20, t.postalCodeInvalid).regex(/^[A-Za-z0-9][A-Za-z0-9 -]*$/, {
    error: t.postalCodeInvalid,
  }),
  documentType: requiredText(t.documentTypeRequired, 40, t.documentTypeInvalid)
    .transform(normalizeDocumentType)
    .pipe(z.enum(KYC_DOCUMENT_TYPES, { error: t.documentTypeInvalid })),
  documentNumber: requiredText(t.documentNumberRequired, 40, t.documentNumberInvalid).regex(/^[A-Za-z0-9-]{5,40}$/, {
    error: t.documentNumberInvalid,
  }),
});
/** What the form holds (strings) and what the server keeps after parsing. */
export type KycSubmissionFieldsInput = z.input<typeof kycSubmissionFieldsSchema>;
export type KycSubmissionFields = z.output<typeof kycSubmissionFieldsSchema>;

/** 201 answer of POST /v1/triple-a/kyc/submit. */
export const kycSubmitResponseSchema = z.object({
  id: z.string(),
  status: z.literal('pending'),
  submitted_at: z.string(),
});
export type KycSubmitResponse = z.infer<typeof kycSubmitResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Reading (GET /v1/triple-a/kyc/{id}, GET /api/v1/kyc/status)
// ---------------------------------------------------------------------------------------------

/**
 * One submission as its owner sees it: the personal fields as submitted, except the document
 * number, of which only the last 4 characters show ("•••••1234"). `documents` names the slots that
 * hold a file; the files themselves are served to reviewers only.
 */
export const kycSubmissionSchema = z.object({
  id: z.string(),
  status: z.enum(KYC_STATUSES),
  /** Why it was rejected; null while pending and when approved. */
  reason: z.string().nullable(),
  submitted_at: z.string(),
  reviewed_at: z.string().nullable(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone: z.string(),
  date_of_birth: z.string(),
  country: z.string(),
  address: z.string(),
  city: z.string(),
  postal_code: z.string(),
  document_type: z.enum(KYC_DOCUMENT_TYPES),
  document_number: z.string(),
  documents: z.array(z.enum(KYC_DOCUMENT_SLOTS)),
});
export type KycSubmission = z.infer<typeof kycSubmissionSchema>;

/** GET /api/v1/kyc/status: the account's tier, its latest submission and the limit that follows. */
export const kycStatusResponseSchema = z.object({
  tier: z.enum(KYC_TIERS),
  latest_submission: kycSubmissionSchema.nullable(),
  daily_withdrawal_limit_usd: z.string(),
  /** False while a submission is pending or once verified. */
  can_submit: z.boolean(),
});
export type KycStatusResponse = z.infer<typeof kycStatusResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Review (compliance or admin role: /api/v1/compliance/kyc...)
// ---------------------------------------------------------------------------------------------

export const kycDocumentInfoSchema = z.object({
  slot: z.enum(KYC_DOCUMENT_SLOTS),
  content_type: z.enum(KYC_ALLOWED_CONTENT_TYPES),
  size_bytes: z.number(),
  /** Relative path of GET /api/v1/compliance/kyc/{id}/documents/{slot}. */
  url: z.string(),
});
export type KycDocumentInfo = z.infer<typeof kycDocumentInfoSchema>;

/** A reviewer's full view: the unmasked document number, the account and the files. */
export const kycReviewSubmissionSchema = kycSubmissionSchema.extend({
  account_id: z.string(),
  account_email: z.string().nullable(),
  reviewed_by: z.string().nullable(),
  document_files: z.array(kycDocumentInfoSchema),
});
export type KycReviewSubmission = z.infer<typeof kycReviewSubmissionSchema>;

export const kycReviewListQuerySchema = z.object({
  status: z.enum(KYC_STATUSES).default('pending'),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type KycReviewListQuery = z.infer<typeof kycReviewListQuerySchema>;

/** One row of the review queue (oldest first for pending, newest first otherwise). */
export const kycReviewListItemSchema = z.object({
  id: z.string(),
  account_id: z.string(),
  account_email: z.string().nullable(),
  status: z.enum(KYC_STATUSES),
  first_name: z.string(),
  last_name: z.string(),
  country: z.string(),
  document_type: z.enum(KYC_DOCUMENT_TYPES),
  submitted_at: z.string(),
  reviewed_at: z.string().nullable(),
});
export type KycReviewListItem = z.infer<typeof kycReviewListItemSchema>;

export const kycReviewListResponseSchema = z.object({
  submissions: z.array(kycReviewListItemSchema),
  total: z.number(),
  page: z.number(),
  limit: z.number(),
});
export type KycReviewListResponse = z.infer<typeof kycReviewListResponseSchema>;

/** POST /api/v1/compliance/kyc/{id}/review; the answer is the reviewed submission (full view). */
export const kycReviewRequestSchema = z
  .object({
    decision: z.enum(['approve', 'reject'], { error: 'Decision must be approve or reject' }),
    reason: z.string().trim().optional(),
  })
  .superRefine((value, context) => {
    const reason = value.reason ?? '';
    if (value.decision === 'reject' && reason.length === 0) {
      context.addIssue({ code: 'custom', path: ['reason'], message: t.reasonRequired });
    } else if (
      reason.length > 0 &&
      (reason.length < KYC_REVIEW_REASON_MIN_LENGTH || reason.length > KYC_REVIEW_REASON_MAX_LENGTH)
    ) {
      context.addIssue({ code: 'custom', path: ['reason'], message: t.reasonLength });
    }
  });
export type KycReviewRequest = z.infer<typeof kycReviewRequestSchema>;
