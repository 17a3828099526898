import { kycSubmissionFieldsSchema } from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client.ts';
import { makeAccount } from '../../test/fixtures.ts';
import { makeKycStatus, makeKycSubmission } from '../payments/payment-test-fixtures.ts';
import {
  formatUsdLimit,
  kycFieldErrorsFromFailure,
  kycFormDefaults,
  kycSlotsFor,
  kycStepFields,
  kycStepOfField,
  kycView,
  latestDateOfBirth,
  missingKycFiles,
  toKycFormData,
} from './kyc-form.ts';

const submission = makeKycSubmission({
  status: 'rejected',
  reason: 'The photo is blurred',
  reviewed_at: '2026-01-02T00:00:00.000Z',
});

const png = (name: string) => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], name, { type: 'image/png' });

describe('KYC form model (spec §2.7, §3.4)', () => {
  it('has the three steps with every §3.4 text field once', () => {
    const fields = [...kycStepFields.personal, ...kycStepFields.address, ...kycStepFields.documents];
    expect(new Set(fields)).toEqual(new Set(Object.keys(kycSubmissionFieldsSchema.shape)));
    expect(kycStepOfField('email')).toBe('personal');
    expect(kycStepOfField('documentNumber')).toBe('address');
    expect(kycStepOfField('documentFront')).toBeNull();
  });

  it('starts from the account, or from the rejected submission without its masked number', () => {
    expect(kycFormDefaults(makeAccount())).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      documentType: 'passport',
    });
    expect(kycFormDefaults(makeAccount(), submission)).toMatchObject({
      postalCode: 'SW1Y 4JH',
      documentType: 'drivers_license',
      documentNumber: '',
    });
  });

  it('asks for the back of every document but a passport; the selfie is optional (§5)', () => {
    expect(kycSlotsFor('passport')).toEqual([
      { slot: 'documentFront', required: true },
      { slot: 'selfie', required: false },
    ]);
    expect(kycSlotsFor('national_id').map((entry) => entry.slot)).toEqual(['documentFront', 'documentBack', 'selfie']);
    expect(missingKycFiles({}, 'passport')).toEqual({ documentFront: 'Document front is required' });
    expect(missingKycFiles({ documentFront: png('f.png') }, 'drivers_license')).toEqual({
      documentBack: 'Document back is required',
    });
    expect(missingKycFiles({ documentFront: png('f.png') }, 'passport')).toEqual({});
  });

  it('builds the multipart body: parsed fields by their names, and only the files the document uses', () => {
    const values = kycSubmissionFieldsSchema.parse({
      ...kycFormDefaults(makeAccount()),
      email: 'ADA@Example.com',
      phone: '+44 20 7946 0958',
      dateOfBirth: '1990-12-10',
      country: 'gb',
      address: '12 St James Sq',
      city: 'London',
      postalCode: 'SW1Y 4JH',
      documentType: "Driver's License",
      documentNumber: 'AB-12345',
    });
    const body = toKycFormData(values, { documentFront: png('f.png'), documentBack: png('b.png') });
    expect(body.get('email')).toBe('ada@example.com');
    expect(body.get('country')).toBe('GB');
    expect(body.get('documentType')).toBe('drivers_license');
    expect((body.get('documentFront') as File).name).toBe('f.png');
    expect((body.get('documentBack') as File).name).toBe('b.png');
    expect(body.get('selfie')).toBeNull();

    const passport = toKycFormData(
      { ...values, documentType: 'passport' },
      { documentFront: png('f.png'), documentBack: png('b.png') },
    );
    expect(passport.get('documentBack')).toBeNull();
  });

  it('puts refused fields next to their inputs (camelCase or snake_case issues, file problems)', () => {
    const validation = new ApiError(400, 'VALIDATION_ERROR', 'Invalid', {
      issues: [
        { path: 'first_name', message: 'First name must be at least 2 characters' },
        { path: 'documentNumber', message: 'x', key: 'some.key' },
        { path: 'unknown', message: 'ignored' },
      ],
    });
    expect(kycFieldErrorsFromFailure(validation)).toEqual([
      { field: 'firstName', message: 'First name must be at least 2 characters' },
      { field: 'documentNumber', message: 'some.key' },
    ]);
    const file = new ApiError(413, 'FILE_TOO_LARGE', 'File size too large', { field: 'selfie' });
    expect(kycFieldErrorsFromFailure(file)).toEqual([{ field: 'selfie', message: 'File size too large' }]);
    expect(kycFieldErrorsFromFailure(new Error('x'))).toEqual([]);
  });

  it('reads the four states from the status', () => {
    expect(kycView(makeKycStatus({}))).toBe('unverified');
    expect(kycView(makeKycStatus({ latest_submission: { ...submission, status: 'pending' }, can_submit: false }))).toBe(
      'pending',
    );
    expect(kycView(makeKycStatus({ latest_submission: submission }))).toBe('rejected');
    expect(kycView(makeKycStatus({ tier: 'verified', latest_submission: { ...submission, status: 'approved' } }))).toBe(
      'approved',
    );
  });

  it('writes limits as dollars, whole where they have no cents', () => {
    expect(formatUsdLimit('2000')).toBe('$2,000');
    expect(formatUsdLimit('100000.00')).toBe('$100,000');
    expect(formatUsdLimit('1234.5')).toBe('$1,234.50');
    expect(formatUsdLimit('x')).toBe('—');
  });

  it('offers birth dates of adults only', () => {
    expect(latestDateOfBirth(new Date('2026-03-05T12:00:00Z'))).toBe('2008-03-05');
  });
});
