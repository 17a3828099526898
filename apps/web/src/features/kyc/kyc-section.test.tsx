import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAppStore } from '../../state/app-store.ts';
import { errorResponse, json, stubFetch } from '../../test/fetch-mock.ts';
import { makeAccount } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';
import { makeKycStatus, makeKycSubmission } from '../payments/payment-test-fixtures.ts';

const submission = makeKycSubmission({ submitted_at: '2026-01-05T10:00:00.000Z', document_number: '•••••2345' });
const unverified = makeKycStatus();

const pngBytes = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const png = (name: string) => new File([new Uint8Array(pngBytes)], name, { type: 'image/png' });

async function openKyc() {
  useAppStore.getState().setAccessToken('token');
  useAppStore.getState().setUser(makeAccount());
  const app = renderApp('/wallet?tab=kyc');
  expect(await screen.findByTestId('kyc-section', undefined, { timeout: 5_000 })).toBeInTheDocument();
  return app;
}

type User = ReturnType<typeof renderApp>['user'];

async function fillPersonal(user: User) {
  await user.type(screen.getByTestId('kyc-phone'), '+44 20 7946 0958');
  // A date picked in a browser fires 'input' then 'change'.
  const dateOfBirth = screen.getByTestId('kyc-dateOfBirth');
  fireEvent.input(dateOfBirth, { target: { value: '1990-12-10' } });
  fireEvent.change(dateOfBirth);
  await user.click(screen.getByTestId('kyc-next'));
  await waitFor(() => expect(screen.getByTestId('kyc-step-heading')).toHaveTextContent('Address & Document'));
}

async function fillAddress(user: User) {
  await user.selectOptions(screen.getByTestId('kyc-country'), 'GB');
  await user.type(screen.getByTestId('kyc-address'), '12 St James Sq');
  await user.type(screen.getByTestId('kyc-city'), 'London');
  await user.type(screen.getByTestId('kyc-postalCode'), 'SW1Y 4JH');
  await user.selectOptions(screen.getByTestId('kyc-documentType'), 'drivers_license');
  await user.type(screen.getByTestId('kyc-documentNumber'), 'AB-12345');
  await user.click(screen.getByTestId('kyc-next'));
  await waitFor(() => expect(screen.getByTestId('kyc-step-heading')).toHaveTextContent('Document Verification'));
}

describe('KYC Verification tab (spec §2.7, §3.4, §5)', { timeout: 20_000 }, () => {
  it('shows the unverified limit, checks each step, checks the files in the browser and submits multipart', async () => {
    const { fetchMock } = stubFetch({
      'GET /api/v1/kyc/status': [
        () => json(200, unverified),
        () =>
          json(200, {
            ...unverified,
            latest_submission: submission,
            can_submit: false,
          }),
      ],
      'POST /v1/triple-a/kyc/submit': () =>
        json(201, { id: 'kyc-1', status: 'pending', submitted_at: submission.submitted_at }),
      'GET /v1/triple-a/kyc/kyc-1': () => json(200, submission),
    });
    const { user } = await openKyc();

    const status = await screen.findByTestId('kyc-status');
    expect(status).toHaveTextContent('Not verified yet');
    expect(within(status).getByTestId('kyc-limit-current')).toHaveTextContent('$2,000');
    expect(within(status).getByTestId('kyc-limit-verified')).toHaveTextContent('$100,000');

    // Step 1: the account's name and email are filled in; the rules are the spec's.
    expect(screen.getByTestId('kyc-step-personal')).toHaveAttribute('aria-current', 'step');
    expect(screen.getByTestId('kyc-firstName')).toHaveValue('Ada');
    await user.clear(screen.getByTestId('kyc-firstName'));
    await user.type(screen.getByTestId('kyc-firstName'), 'A');
    await user.clear(screen.getByTestId('kyc-email'));
    await user.type(screen.getByTestId('kyc-email'), 'not-an-email');
    await user.click(screen.getByTestId('kyc-next'));
    expect(await screen.findByText('First name must be at least 2 characters')).toBeInTheDocument();
    expect(screen.getByText('Invalid email address')).toBeInTheDocument();
    expect(screen.getByText('Date of birth is required')).toBeInTheDocument();
    expect(screen.getByTestId('kyc-step-heading')).toHaveTextContent('Personal Information');
    expect(screen.getByTestId('kyc-firstName')).toHaveFocus();

    await user.type(screen.getByTestId('kyc-firstName'), 'da');
    await user.clear(screen.getByTestId('kyc-email'));
    await user.type(screen.getByTestId('kyc-email'), 'Ada@Example.com');
    await fillPersonal(user);
    expect(screen.getByTestId('kyc-step-heading')).toHaveFocus();

    // Step 2 refuses to move on without its fields.
    await user.click(screen.getByTestId('kyc-next'));
    expect(await screen.findByText('Country is required')).toBeInTheDocument();
    await fillAddress(user);

    // Step 3: a "PNG" that is not one, and a file above 10 MB, are refused before any upload.
    await user.upload(
      screen.getByTestId('kyc-file-documentFront-input'),
      new File(['%PDF-1.7'], 'front.png', { type: 'image/png' }),
    );
    expect(
      await within(screen.getByTestId('kyc-file-documentFront')).findByText('Invalid file type'),
    ).toBeInTheDocument();
    const big = new File([new Uint8Array(10 * 1024 * 1024 + 1)], 'back.png', { type: 'image/png' });
    await user.upload(screen.getByTestId('kyc-file-documentBack-input'), big);
    expect(
      await within(screen.getByTestId('kyc-file-documentBack')).findByText('File size too large'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('kyc-file-selfie')).toHaveTextContent('Optional');

    await user.upload(screen.getByTestId('kyc-file-documentFront-input'), png('front.png'));
    await waitFor(() => expect(screen.getByTestId('kyc-file-documentFront')).toHaveTextContent('front.png'));
    expect(screen.getByTestId('kyc-file-documentFront')).not.toHaveTextContent('Invalid file type');

    // The back is still missing (a driver's license has two sides).
    await user.click(screen.getByTestId('kyc-submit'));
    expect(
      await within(screen.getByTestId('kyc-file-documentBack')).findByText('Document back is required'),
    ).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/kyc/submit'))).toBe(false);

    await user.upload(screen.getByTestId('kyc-file-documentBack-input'), png('back.png'));
    await waitFor(() => expect(screen.getByTestId('kyc-file-documentBack')).toHaveTextContent('back.png'));
    await user.click(screen.getByTestId('kyc-submit'));

    expect(await screen.findByText('Verification submitted for review')).toBeInTheDocument();
    const submit = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/v1/triple-a/kyc/submit'));
    const init = submit?.[1] as RequestInit | undefined;
    const body = init?.body as FormData;
    expect(body.get('firstName')).toBe('Ada');
    expect(body.get('email')).toBe('ada@example.com');
    expect(body.get('dateOfBirth')).toBe('1990-12-10');
    expect(body.get('country')).toBe('GB');
    expect(body.get('documentType')).toBe('drivers_license');
    expect(body.get('documentNumber')).toBe('AB-12345');
    expect((body.get('documentFront') as File).name).toBe('front.png');
    expect((body.get('documentBack') as File).name).toBe('back.png');
    expect(body.get('selfie')).toBeNull();

    // The status is read again: the submission is now under review.
    await waitFor(() => expect(screen.getByTestId('kyc-status')).toHaveAttribute('data-status', 'pending'));
    expect(screen.queryByTestId('kyc-form')).not.toBeInTheDocument();
    expect(await screen.findByTestId('kyc-details')).toHaveTextContent('•••••2345');
  });

  it("asks for the document back, and shows the server's refusal or the spec's fallback", async () => {
    stubFetch({
      'GET /api/v1/kyc/status': () => json(200, unverified),
      'POST /v1/triple-a/kyc/submit': [
        () => errorResponse(409, 'KYC_ALREADY_PENDING', 'A verification is already under review'),
        () => json(201, { unexpected: true }),
        () =>
          errorResponse(400, 'VALIDATION_ERROR', 'Invalid request', {
            issues: [{ path: 'documentNumber', message: 'Document number must be 5 to 40 letters, digits or dashes' }],
          }),
      ],
    });
    const { user } = await openKyc();
    await screen.findByTestId('kyc-form');
    await fillPersonal(user);
    await fillAddress(user);
    await user.upload(screen.getByTestId('kyc-file-documentFront-input'), png('front.png'));
    await waitFor(() => expect(screen.getByTestId('kyc-file-documentFront')).toHaveTextContent('front.png'));
    await user.click(screen.getByTestId('kyc-submit'));
    expect(await screen.findByText('Document back is required')).toBeInTheDocument();
    expect(screen.getByTestId('kyc-file-documentBack-input')).toHaveFocus();

    await user.upload(screen.getByTestId('kyc-file-documentBack-input'), png('back.png'));
    await waitFor(() => expect(screen.queryByText('Document back is required')).not.toBeInTheDocument());
    await user.click(screen.getByTestId('kyc-submit'));
    expect(await screen.findByTestId('kyc-form-error')).toHaveTextContent('A verification is already under review');

    await user.click(screen.getByTestId('kyc-submit'));
    await waitFor(() =>
      expect(screen.getByTestId('kyc-form-error')).toHaveTextContent('Failed to submit KYC verification'),
    );

    // A field the server refuses opens its step with the text next to it.
    await user.click(screen.getByTestId('kyc-submit'));
    await waitFor(() => expect(screen.getByTestId('kyc-step-heading')).toHaveTextContent('Address & Document'));
    expect(screen.getByText('Document number must be 5 to 40 letters, digits or dashes')).toBeInTheDocument();
  });

  it('shows a pending verification as under review, with its details and no form', async () => {
    stubFetch({
      'GET /api/v1/kyc/status': () => json(200, { ...unverified, latest_submission: submission, can_submit: false }),
      'GET /v1/triple-a/kyc/kyc-1': () => json(200, submission),
    });
    await openKyc();
    const status = await screen.findByTestId('kyc-status');
    expect(status).toHaveTextContent('Verification under review');
    expect(within(status).getByTestId('kyc-status-badge')).toHaveTextContent('Under review');
    const details = await screen.findByTestId('kyc-details');
    expect(details).toHaveTextContent("Driver's license");
    expect(within(details).getByTestId('kyc-document-number')).toHaveTextContent('•••••2345');
    expect(details).toHaveTextContent('United Kingdom');
    expect(screen.queryByTestId('kyc-form')).not.toBeInTheDocument();
  });

  it('shows an approved account as verified with the higher limit', async () => {
    const approved = { ...submission, status: 'approved' as const, reviewed_at: '2026-01-06T10:00:00.000Z' };
    stubFetch({
      'GET /api/v1/kyc/status': () =>
        json(200, {
          tier: 'verified',
          latest_submission: approved,
          daily_withdrawal_limit_usd: '100000',
          can_submit: false,
        }),
      'GET /v1/triple-a/kyc/kyc-1': () => json(200, approved),
    });
    await openKyc();
    const status = await screen.findByTestId('kyc-status');
    expect(status).toHaveAttribute('data-status', 'approved');
    expect(within(status).getByTestId('kyc-status-badge')).toHaveTextContent('Verified');
    expect(within(status).getByTestId('kyc-limit-current')).toHaveTextContent('$100,000');
    expect(within(status).queryByTestId('kyc-limit-verified')).not.toBeInTheDocument();
  });

  it('shows a rejection with its reason and opens the form again, filled from the last submission', async () => {
    const rejected = {
      ...submission,
      status: 'rejected' as const,
      reason: 'The document photo is blurred',
      reviewed_at: '2026-01-06T10:00:00.000Z',
    };
    stubFetch({
      'GET /api/v1/kyc/status': () => json(200, { ...unverified, latest_submission: rejected, can_submit: true }),
      'GET /v1/triple-a/kyc/kyc-1': () => json(200, rejected),
    });
    const { user } = await openKyc();
    const status = await screen.findByTestId('kyc-status');
    expect(status).toHaveTextContent('Verification rejected');
    expect(within(status).getByTestId('kyc-reason')).toHaveTextContent('The document photo is blurred');
    expect(screen.queryByTestId('kyc-form')).not.toBeInTheDocument();

    await user.click(screen.getByTestId('kyc-submit-again'));
    expect(await screen.findByTestId('kyc-form')).toBeInTheDocument();
    expect(screen.getByTestId('kyc-phone')).toHaveValue('+44 20 7946 0958');
    await user.click(screen.getByTestId('kyc-next'));
    await waitFor(() => expect(screen.getByTestId('kyc-step-heading')).toHaveTextContent('Address & Document'));
    expect(screen.getByTestId('kyc-postalCode')).toHaveValue('SW1Y 4JH');
    expect(screen.getByTestId('kyc-documentNumber')).toHaveValue('');
    expect(screen.queryByTestId('kyc-submit-again')).not.toBeInTheDocument();
  });

  it('says when the status cannot be read, with a retry', async () => {
    stubFetch({ 'GET /api/v1/kyc/status': () => json(200, { nonsense: true }) });
    await openKyc();
    expect(await screen.findByText('Failed to load the verification status')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
