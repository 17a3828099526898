import {
  type Account,
  DAILY_WITHDRAWAL_LIMITS_USD,
  documentTypeNeedsBack,
  KYC_DOCUMENT_TYPES,
  KYC_MIN_AGE_YEARS,
  type KycDocumentSlot,
  type KycDocumentType,
  type KycStatusResponse,
  type KycSubmission,
  type KycSubmissionFields,
  type KycSubmissionFieldsInput,
  kycValidationTexts,
} from '@platform/contracts';
import { formatDecimal, stripTrailingZeros } from '@platform/money';
import { z } from 'zod';
import { ApiError } from '../../api/client.ts';
import { groupThousands, MISSING_VALUE, toAmount } from '../../lib/format.ts';

/**
 * The KYC verification of spec §2.7 and §3.4 as plain data: its three steps and their fields, what
 * the form starts with, the multipart body it sends, and which of the four states the account is in.
 * The field rules are the contract's schema (kycSubmissionFieldsSchema), shared with the server.
 */

export type KycFormValues = KycSubmissionFieldsInput;
export type KycTextField = keyof KycFormValues;

/** §2.7's steps, in order. */
export const kycSteps = ['personal', 'address', 'documents'] as const;
export type KycStep = (typeof kycSteps)[number];

/** The text fields each step asks for; the last step asks for the files. */
export const kycStepFields: Record<KycStep, readonly KycTextField[]> = {
  personal: ['firstName', 'lastName', 'email', 'phone', 'dateOfBirth'],
  address: ['country', 'address', 'city', 'postalCode', 'documentType', 'documentNumber'],
  documents: [],
};

export function kycStepOfField(field: string): KycStep | null {
  return kycSteps.find((step) => (kycStepFields[step] as readonly string[]).includes(field)) ?? null;
}

/** i18n keys of the document types under wallet.kyc.documentTypes. */
export const kycDocumentTypes = KYC_DOCUMENT_TYPES;

export const emptyKycForm: KycFormValues = {
  firstName: '',
  lastName: '',
  email: '',
  phone: '',
  dateOfBirth: '',
  country: '',
  address: '',
  city: '',
  postalCode: '',
  documentType: 'passport',
  documentNumber: '',
};

/**
 * What the form starts with: the account's own name, email and phone, or, when submitting again,
 * what the last submission said (all but the document number, which the server shows masked).
 */
export function kycFormDefaults(account: Account | null, previous: KycSubmission | null = null): KycFormValues {
  if (previous) {
    return {
      firstName: previous.first_name,
      lastName: previous.last_name,
      email: previous.email,
      phone: previous.phone,
      dateOfBirth: previous.date_of_birth,
      country: previous.country,
      address: previous.address,
      city: previous.city,
      postalCode: previous.postal_code,
      documentType: previous.document_type,
      documentNumber: '',
    };
  }
  return {
    ...emptyKycForm,
    firstName: account?.first_name ?? '',
    lastName: account?.last_name ?? '',
    email: account?.email ?? '',
    phone: account?.phone ?? '',
  };
}

/** The latest date of birth old enough (§ KYC_MIN_AGE_YEARS), YYYY-MM-DD, for the date picker's max. */
export function latestDateOfBirth(now: Date = new Date()): string {
  const year = now.getUTCFullYear() - KYC_MIN_AGE_YEARS;
  const month = String(now.getUTCMonth() + 1).padStart(2, '0');
  const day = String(now.getUTCDate()).padStart(2, '0');
  // 29 February in a year that has none: the picker's max may then be 1 March, which is still fine.
  return `${year}-${month}-${day}`;
}

// ---------------------------------------------------------------------------------------------
// Files
// ---------------------------------------------------------------------------------------------

export const kycFileSlots: readonly KycDocumentSlot[] = ['documentFront', 'documentBack', 'selfie'];

/** The slots a document type asks for, and whether each is required (the selfie never is, §5). */
export function kycSlotsFor(documentType: string): { slot: KycDocumentSlot; required: boolean }[] {
  const type = (KYC_DOCUMENT_TYPES as readonly string[]).includes(documentType)
    ? (documentType as KycDocumentType)
    : 'passport';
  return [
    { slot: 'documentFront', required: true },
    ...(documentTypeNeedsBack(type) ? [{ slot: 'documentBack' as const, required: true }] : []),
    { slot: 'selfie', required: false },
  ];
}

export type KycFiles = Partial<Record<KycDocumentSlot, File>>;

const requiredFileText: Partial<Record<KycDocumentSlot, string>> = {
  documentFront: kycValidationTexts.documentFrontRequired,
  documentBack: kycValidationTexts.documentBackRequired,
};

/** A required slot without a file, in the contract's words ('Document front is required'). */
export function missingKycFiles(files: KycFiles, documentType: string): Partial<Record<KycDocumentSlot, string>> {
  const missing: Partial<Record<KycDocumentSlot, string>> = {};
  for (const { slot, required } of kycSlotsFor(documentType)) {
    if (required && !files[slot]) missing[slot] = requiredFileText[slot] ?? kycValidationTexts.documentFrontRequired;
  }
  return missing;
}

/**
 * The multipart body of POST /kyc/submit: the parsed text fields by their §3.4 names, then the files
 * of the slots the document type uses (a back picked before switching to a passport stays home).
 */
export function toKycFormData(values: KycSubmissionFields, files: KycFiles): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(values)) body.append(name, String(value));
  for (const { slot } of kycSlotsFor(values.documentType)) {
    const file = files[slot];
    if (file) body.append(slot, file, file.name);
  }
  return body;
}

// ---------------------------------------------------------------------------------------------
// Server answers
// ---------------------------------------------------------------------------------------------

const requestFieldToFormField: Record<string, KycTextField | KycDocumentSlot> = {
  first_name: 'firstName',
  last_name: 'lastName',
  date_of_birth: 'dateOfBirth',
  postal_code: 'postalCode',
  document_type: 'documentType',
  document_number: 'documentNumber',
  document_front: 'documentFront',
  document_back: 'documentBack',
};
const formFields = new Set<string>([...Object.keys(emptyKycForm), ...kycFileSlots]);

/** A server field name (camelCase as sent, or snake_case) as the form's field, or null. */
export function kycFormField(requestField: string): KycTextField | KycDocumentSlot | null {
  if (formFields.has(requestField)) return requestField as KycTextField | KycDocumentSlot;
  return requestFieldToFormField[requestField] ?? null;
}

const detailsSchema = z
  .object({ field: z.string().optional(), slot: z.string().optional(), path: z.string().optional() })
  .partial();

/** The problems of a refused submission by form field: a VALIDATION_ERROR's issues, or a file's problem. */
export function kycFieldErrorsFromFailure(
  error: unknown,
): { field: KycTextField | KycDocumentSlot; message: string }[] {
  if (!(error instanceof ApiError)) return [];
  const found: { field: KycTextField | KycDocumentSlot; message: string }[] = [];
  for (const issue of error.issues) {
    const field = kycFormField(issue.path);
    if (field) found.push({ field, message: issue.key ?? issue.message });
  }
  if (found.length > 0) return found;
  const details = detailsSchema.safeParse(error.details);
  const named = details.success ? (details.data.slot ?? details.data.field ?? details.data.path) : undefined;
  const field = named ? kycFormField(named) : null;
  return field ? [{ field, message: error.message }] : [];
}

// ---------------------------------------------------------------------------------------------
// Status
// ---------------------------------------------------------------------------------------------

/** The four states the tab shows. */
export type KycView = 'unverified' | 'pending' | 'approved' | 'rejected';

export function kycView(status: KycStatusResponse): KycView {
  if (status.tier === 'verified') return 'approved';
  const latest = status.latest_submission?.status;
  if (latest === 'pending') return 'pending';
  if (latest === 'rejected') return 'rejected';
  if (latest === 'approved') return 'approved';
  return 'unverified';
}

/** A USD limit as whole dollars where it has no cents: '$2,000', '$100,000', '$1,234.5' -> '$1,234.50'. */
export function formatUsdLimit(value: string | null | undefined): string {
  const amount = toAmount(value);
  if (!amount) return MISSING_VALUE;
  const stripped = stripTrailingZeros(amount);
  const text = stripped.scale === 0 ? formatDecimal(stripped) : formatDecimal(amount, { scale: 2 });
  return `$${groupThousands(text)}`;
}

/** The verified tier's limit, what verification raises the daily limit to. */
export const VERIFIED_DAILY_LIMIT_USD = DAILY_WITHDRAWAL_LIMITS_USD.verified;
