import http from 'node:http';
import {
  KYC_MAX_FILE_BYTES,
  type KycReviewListResponse,
  type KycReviewSubmission,
  type KycStatusResponse,
  type KycSubmission,
  type Notification,
} from '@platform/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/harness.ts';
import {
  GIF_BYTES,
  JPEG_BYTES,
  kycForm,
  PDF_BYTES,
  type Person,
  pngBytes,
  pngOfSize,
  rowsOf,
  SUBMIT_PATH,
  signUpPerson,
  signUpReviewer,
  storedFiles,
  submitKyc,
  submitValid,
  TEXT_BYTES,
  validFields,
} from './test-support.ts';
import { KYC_MAX_REQUEST_BYTES } from './uploads.ts';

const errorOf = (response: { body: unknown }) =>
  (response.body as { error?: { code: string; message: string; details?: unknown } }).error;

/** YYYY-MM-DD of `years` years before today (UTC). */
function yearsAgo(years: number): string {
  const now = new Date();
  return `${now.getUTCFullYear() - years}-${String(now.getUTCMonth() + 1).padStart(2, '0')}-${String(now.getUTCDate()).padStart(2, '0')}`;
}

describeEachDatabase(
  'kyc: submission, reading and compliance review',
  (server) => {
    let reviewer: Person;
    let png: Uint8Array;

    beforeAll(async () => {
      const signedUp = await signUpReviewer(server());
      reviewer = { ...signedUp, id: signedUp.session.account_id, token: signedUp.session.token };
      png = await pngBytes('front');
    });

    /** A refused submission: status, code and message, and nothing stored or recorded for the account. */
    async function expectRefused(
      person: Person,
      form: FormData,
      expected: { status: number; code: string; message: string },
    ) {
      const before = storedFiles(server());
      const response = await submitKyc(server(), person.token, form);
      expect({ status: response.status, ...errorOf(response) }).toMatchObject(expected);
      expect(storedFiles(server())).toEqual(before);
      expect(await rowsOf(server(), person.id)).toEqual({ submissions: 0, documents: 0 });
      return response;
    }

    describe('submission', () => {
      it('accepts PNG and JPG documents by content: 201 pending, the owner reads it masked', async () => {
        const ada = await signUpPerson(server());
        const before = storedFiles(server()).length;
        const submitted = await submitKyc(
          server(),
          ada.token,
          kycForm(validFields({ documentType: "Driver's License" }), {
            documentFront: { bytes: png },
            // The declared type and name are wrong on purpose: the content decides.
            documentBack: { bytes: JPEG_BYTES, name: 'back.png', type: 'application/octet-stream' },
            selfie: { bytes: JPEG_BYTES, name: 'me.jpeg', type: 'image/jpeg' },
          }),
        );
        expect(submitted.status).toBe(201);
        expect(submitted.body).toEqual({ id: expect.any(String), status: 'pending', submitted_at: expect.any(String) });
        // Three documents, each as data and metadata.
        expect(storedFiles(server()).length).toBe(before + 6);
        expect(await rowsOf(server(), ada.id)).toEqual({ submissions: 1, documents: 3 });

        const read = await server().request<KycSubmission>('GET', `/v1/triple-a/kyc/${submitted.body.id}`, {
          token: ada.token,
        });
        expect(read.status).toBe(200);
        expect(read.body).toEqual({
          id: submitted.body.id,
          status: 'pending',
          reason: null,
          submitted_at: submitted.body.submitted_at,
          reviewed_at: null,
          first_name: 'Ada',
          last_name: 'Lovelace',
          email: 'ada@example.com',
          phone: '+44 20 7946 0958',
          date_of_birth: '1990-05-17',
          country: 'GB',
          address: '12 St James Square',
          city: 'London',
          postal_code: 'SW1Y 4JH',
          document_type: 'drivers_license',
          document_number: '**********0AB9',
          documents: ['documentFront', 'documentBack', 'selfie'],
        });

        const status = await server().request<KycStatusResponse>('GET', '/api/v1/kyc/status', { token: ada.token });
        expect(status.body).toMatchObject({
          tier: 'unverified',
          daily_withdrawal_limit_usd: '2000',
          can_submit: false,
          latest_submission: { id: submitted.body.id, status: 'pending', document_number: '**********0AB9' },
        });
      });

      it('takes a passport without a back page, the spelling "national ID", and files over the JSON body limit', async () => {
        const passport = await signUpPerson(server());
        const alone = await submitKyc(
          server(),
          passport.token,
          kycForm(validFields({ documentType: 'passport', documentNumber: 'P12345678' }), {
            // 2 MiB: twice the server's JSON body limit, which multipart bodies are not held to.
            documentFront: { bytes: await pngOfSize(2 * 1024 * 1024) },
          }),
        );
        expect(alone.status).toBe(201);

        const national = await signUpPerson(server());
        const id = await submitValid(server(), national.token, { documentType: 'national ID' });
        expect(id.status).toBe(201);
        const read = await server().request<KycSubmission>('GET', `/v1/triple-a/kyc/${id.body.id}`, {
          token: national.token,
        });
        expect(read.body.document_type).toBe('national_id');
      });

      it("refuses a GIF, a PDF and text named .png with 'Invalid file type', leaving nothing behind", async () => {
        const person = await signUpPerson(server());
        for (const bytes of [GIF_BYTES, PDF_BYTES, TEXT_BYTES]) {
          await expectRefused(
            person,
            kycForm(validFields(), {
              documentFront: { bytes, name: 'front.png', type: 'image/png' },
              documentBack: { bytes: JPEG_BYTES, name: 'back.jpg', type: 'image/jpeg' },
            }),
            { status: 415, code: 'FILE_TYPE_INVALID', message: 'Invalid file type' },
          );
        }
        // The front was stored before the back was refused: it is deleted again.
        const refused = await expectRefused(
          person,
          kycForm(validFields(), {
            documentFront: { bytes: png },
            documentBack: { bytes: GIF_BYTES, name: 'back.png', type: 'image/png' },
          }),
          { status: 415, code: 'FILE_TYPE_INVALID', message: 'Invalid file type' },
        );
        expect(refused.body.error.details).toEqual({
          issues: [{ path: 'documentBack', message: 'Invalid file type' }],
        });
      });

      it("refuses a file of 10 MB + 1 byte with 'File size too large' (413) and takes one of exactly 10 MB", async () => {
        const person = await signUpPerson(server());
        await expectRefused(
          person,
          kycForm(validFields(), {
            documentFront: { bytes: png },
            documentBack: { bytes: await pngOfSize(KYC_MAX_FILE_BYTES + 1) },
          }),
          { status: 413, code: 'FILE_TOO_LARGE', message: 'File size too large' },
        );
        const exact = await submitKyc(
          server(),
          person.token,
          kycForm(validFields({ documentType: 'passport' }), {
            documentFront: { bytes: await pngOfSize(KYC_MAX_FILE_BYTES) },
          }),
        );
        expect(exact.status).toBe(201);
      });

      it('refuses a body whose declared length is past every file limit before reading it', async () => {
        const person = await signUpPerson(server());
        const url = new URL(`${server().url}${SUBMIT_PATH}`);
        const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
          const request = http.request(url, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${person.token}`,
              'content-type': 'multipart/form-data; boundary=x',
              'content-length': String(KYC_MAX_REQUEST_BYTES + 1),
            },
          });
          request.on('response', (response) => {
            let body = '';
            response.on('data', (chunk) => {
              body += chunk;
            });
            response.on('end', () => {
              resolve({ status: response.statusCode ?? 0, body });
              request.destroy();
            });
          });
          request.on('error', reject);
          request.write('--x\r\n');
        });
        expect(answer.status).toBe(413);
        expect(JSON.parse(answer.body).error).toMatchObject({ code: 'FILE_TOO_LARGE', message: 'File size too large' });
      });

      it('cuts off a body without Content-Length once it passes every file limit, keeping nothing', async () => {
        const person = await signUpPerson(server());
        const before = storedFiles(server());
        const chunk = Buffer.alloc(1024 * 1024, 0x41);
        const outcome = await new Promise<string>((resolve) => {
          const request = http.request(new URL(`${server().url}${SUBMIT_PATH}`), {
            method: 'POST',
            headers: {
              authorization: `Bearer ${person.token}`,
              'content-type': 'multipart/form-data; boundary=x',
              'transfer-encoding': 'chunked',
            },
          });
          request.on('response', (response) => {
            response.resume();
            resolve(`answered ${response.statusCode}`);
          });
          request.on('error', () => resolve('cut off'));
          request.write('--x\r\nContent-Disposition: form-data; name="documentFront"; filename="a.png"\r\n\r\n');
          request.write(png);
          const send = (left: number): void => {
            if (left === 0) {
              request.end('\r\n--x--\r\n');
              return;
            }
            if (request.destroyed) return;
            request.write(chunk, () => send(left - 1));
          };
          send(Math.ceil(KYC_MAX_REQUEST_BYTES / chunk.byteLength) + 2);
        });
        expect(outcome).toBe('cut off');
        expect(storedFiles(server())).toEqual(before);
        expect(await rowsOf(server(), person.id)).toEqual({ submissions: 0, documents: 0 });
      });

      it('checks every field with a clear message and keeps nothing of a refused form', async () => {
        const person = await signUpPerson(server());
        const files = { documentFront: { bytes: png }, documentBack: { bytes: JPEG_BYTES, type: 'image/jpeg' } };
        const cases: [Record<string, string | undefined>, string, string][] = [
          [{ firstName: undefined }, 'firstName', 'First name is required'],
          [{ firstName: 'A' }, 'firstName', 'First name must be at least 2 characters'],
          [{ lastName: ' ' }, 'lastName', 'Last name is required'],
          [{ lastName: 'L' }, 'lastName', 'Last name must be at least 2 characters'],
          [{ email: 'ada@example' }, 'email', 'Invalid email address'],
          [{ phone: 'call me' }, 'phone', 'Invalid phone number'],
          [{ dateOfBirth: '2001-02-30' }, 'dateOfBirth', 'Date of birth must be a real date (YYYY-MM-DD)'],
          [{ dateOfBirth: '17/05/1990' }, 'dateOfBirth', 'Date of birth must be a real date (YYYY-MM-DD)'],
          [{ dateOfBirth: yearsAgo(17) }, 'dateOfBirth', 'You must be at least 18 years old'],
          [{ country: 'GBR' }, 'country', 'Country must be a 2-letter code'],
          [{ address: undefined }, 'address', 'Address is required'],
          [{ city: '' }, 'city', 'City is required'],
          [{ postalCode: undefined }, 'postalCode', 'Postal code is required'],
          [{ documentType: 'visa' }, 'documentType', "Document type must be passport, driver's license or national ID"],
          [{ documentNumber: undefined }, 'documentNumber', 'Document number is required'],
          [{ documentNumber: '12/34' }, 'documentNumber', 'Document number must be 5 to 40 letters, digits or dashes'],
          [{ address: 'x'.repeat(2000) }, 'address', 'address is too long'],
        ];
        for (const [overrides, path, message] of cases) {
          const refused = await expectRefused(person, kycForm(validFields(overrides), files), {
            status: 400,
            code: 'VALIDATION_ERROR',
            message,
          });
          expect(refused.body.error.details.issues[0]).toEqual({ path, message });
        }

        await expectRefused(person, kycForm({}, {}), {
          status: 400,
          code: 'VALIDATION_ERROR',
          message: 'First name is required',
        });
        await expectRefused(person, kycForm(validFields(), {}), {
          status: 400,
          code: 'VALIDATION_ERROR',
          message: 'Document front is required',
        });
        const noBack = await expectRefused(person, kycForm(validFields(), { documentFront: { bytes: png } }), {
          status: 400,
          code: 'VALIDATION_ERROR',
          message: 'Document back is required',
        });
        expect(noBack.body.error.details.issues).toEqual([
          { path: 'documentBack', message: 'Document back is required' },
        ]);
        await expectRefused(person, kycForm(validFields(), { ...files, passportScan: { bytes: png } }), {
          status: 400,
          code: 'VALIDATION_ERROR',
          message: 'Unexpected file field passportScan',
        });
        const tooMany = kycForm(validFields(), { ...files, selfie: { bytes: png } });
        tooMany.append('selfie', new Blob([png], { type: 'image/png' }), 'again.png');
        await expectRefused(person, tooMany, {
          status: 400,
          code: 'VALIDATION_ERROR',
          message: 'Too many files or fields in the form',
        });
        const twice = kycForm(validFields(), files);
        twice.append('documentFront', new Blob([png], { type: 'image/png' }), 'again.png');
        await expectRefused(person, twice, {
          status: 400,
          code: 'VALIDATION_ERROR',
          message: 'documentFront was sent more than once',
        });
        // An empty file input counts as no file.
        await expectRefused(person, kycForm(validFields(), { ...files, documentFront: { bytes: new Uint8Array(0) } }), {
          status: 400,
          code: 'VALIDATION_ERROR',
          message: 'Document front is required',
        });
      });

      it('wants multipart from a signed-in account', async () => {
        const person = await signUpPerson(server());
        const json = await server().request('POST', SUBMIT_PATH, { token: person.token, body: validFields() });
        expect(json.status).toBe(415);
        expect(errorOf(json)).toEqual({
          code: 'UNSUPPORTED_MEDIA_TYPE',
          message: 'Send the verification as multipart/form-data',
        });
        const anonymous = await fetch(`${server().url}${SUBMIT_PATH}`, {
          method: 'POST',
          body: kycForm(validFields(), { documentFront: { bytes: png } }),
        });
        expect(anonymous.status).toBe(401);
        expect(await rowsOf(server(), person.id)).toEqual({ submissions: 0, documents: 0 });
      });

      it('allows one pending submission at a time (KYC_ALREADY_PENDING), even when two race', async () => {
        const person = await signUpPerson(server());
        const [first, second] = await Promise.all([
          submitValid(server(), person.token),
          submitValid(server(), person.token),
        ]);
        expect([first.status, second.status].sort()).toEqual([201, 409]);
        const loser = first.status === 409 ? first : second;
        expect(errorOf(loser)).toEqual({
          code: 'KYC_ALREADY_PENDING',
          message: 'A verification is already under review',
        });
        const third = await submitValid(server(), person.token);
        expect(errorOf(third)?.code).toBe('KYC_ALREADY_PENDING');
        expect(await rowsOf(server(), person.id)).toEqual({ submissions: 1, documents: 2 });
        // Only the accepted submission's two documents remain (data and metadata each).
        const keys = await server().db.query<{ storage_key: string }>(
          'SELECT d.storage_key FROM kyc_documents d JOIN kyc_submissions s ON s.id = d.submission_id WHERE s.account_id = $1',
          [person.id],
        );
        const files = storedFiles(server());
        for (const { storage_key } of keys.rows)
          expect(files.filter((file) => file.endsWith(storage_key))).toHaveLength(2);
      });
    });

    describe('reading', () => {
      it("hides someone else's verification (404) and shows it whole to a reviewer", async () => {
        const owner = await signUpPerson(server());
        const stranger = await signUpPerson(server());
        const { body } = await submitValid(server(), owner.token);
        for (const id of [body.id, '00000000-0000-4000-8000-000000000000', 'not-an-id']) {
          const hidden = await server().request('GET', `/v1/triple-a/kyc/${id}`, { token: stranger.token });
          expect(hidden.status).toBe(404);
          expect(errorOf(hidden)).toEqual({ code: 'KYC_NOT_FOUND', message: 'Verification not found' });
        }
        expect((await server().request('GET', `/v1/triple-a/kyc/${body.id}`)).status).toBe(401);
        const asReviewer = await server().request<KycSubmission>('GET', `/v1/triple-a/kyc/${body.id}`, {
          token: reviewer.token,
        });
        expect(asReviewer.body.document_number).toBe('LOVEL905170AB9');

        const fresh = await signUpPerson(server());
        const status = await server().request<KycStatusResponse>('GET', '/api/v1/kyc/status', { token: fresh.token });
        expect(status.body).toEqual({
          tier: 'unverified',
          latest_submission: null,
          daily_withdrawal_limit_usd: '2000',
          can_submit: true,
        });
      });
    });

    describe('review', () => {
      async function review(token: string, id: string, body: unknown) {
        return server().request<KycReviewSubmission>('POST', `/api/v1/compliance/kyc/${id}/review`, { token, body });
      }
      async function notificationsOf(person: Person): Promise<Notification[]> {
        const list = await server().request('GET', '/v1/notifications', { token: person.token });
        return list.body.notifications;
      }

      it('forbids every review call to anyone without the compliance or admin role', async () => {
        const person = await signUpPerson(server());
        const { body } = await submitValid(server(), person.token);
        for (const [method, path] of [
          ['GET', '/api/v1/compliance/kyc?status=pending'],
          ['GET', `/api/v1/compliance/kyc/${body.id}`],
          ['GET', `/api/v1/compliance/kyc/${body.id}/documents/documentFront`],
          ['POST', `/api/v1/compliance/kyc/${body.id}/review`],
        ] as const) {
          const denied = await server().request(method, path, {
            token: person.token,
            ...(method === 'POST' ? { body: { decision: 'approve' } } : {}),
          });
          expect(denied.status).toBe(403);
          expect(errorOf(denied)?.code).toBe('FORBIDDEN');
          expect((await server().request(method, path)).status).toBe(401);
        }
        const still = await server().request<KycSubmission>('GET', `/v1/triple-a/kyc/${body.id}`, {
          token: person.token,
        });
        expect(still.body.status).toBe('pending');
      });

      it('lists the pending queue oldest first, with paging', async () => {
        const first = await signUpPerson(server());
        const second = await signUpPerson(server());
        const a = await submitValid(server(), first.token);
        const b = await submitValid(server(), second.token);
        const all = await server().request<KycReviewListResponse>('GET', '/api/v1/compliance/kyc?limit=100', {
          token: reviewer.token,
        });
        expect(all.status).toBe(200);
        const ids = all.body.submissions.map((item) => item.id);
        expect(ids.indexOf(a.body.id)).toBeLessThan(ids.indexOf(b.body.id));
        expect(all.body.submissions.every((item) => item.status === 'pending')).toBe(true);
        expect(all.body.submissions.find((item) => item.id === b.body.id)).toMatchObject({
          account_id: second.id,
          account_email: second.email,
          first_name: 'Ada',
          country: 'GB',
          document_type: 'drivers_license',
          reviewed_at: null,
        });
        const page = await server().request<KycReviewListResponse>('GET', '/api/v1/compliance/kyc?limit=1&page=2', {
          token: reviewer.token,
        });
        expect(page.body).toMatchObject({ total: all.body.total, page: 2, limit: 1 });
        expect(page.body.submissions.map((item) => item.id)).toEqual([ids[1]]);
        const bad = await server().request('GET', '/api/v1/compliance/kyc?status=lost&limit=0', {
          token: reviewer.token,
        });
        expect(bad.status).toBe(400);
      });

      it('serves a document as an attachment with its sniffed type, never inline or sniffable', async () => {
        const person = await signUpPerson(server());
        const { body } = await submitValid(server(), person.token);
        const full = await server().request<KycReviewSubmission>('GET', `/api/v1/compliance/kyc/${body.id}`, {
          token: reviewer.token,
        });
        expect(full.body.document_files).toEqual([
          {
            slot: 'documentFront',
            content_type: 'image/png',
            size_bytes: png.byteLength,
            url: `/api/v1/compliance/kyc/${body.id}/documents/documentFront`,
          },
          {
            slot: 'documentBack',
            content_type: 'image/jpeg',
            size_bytes: JPEG_BYTES.byteLength,
            url: `/api/v1/compliance/kyc/${body.id}/documents/documentBack`,
          },
        ]);

        for (const [slot, bytes, type, extension] of [
          ['documentFront', png, 'image/png', 'png'],
          ['documentBack', JPEG_BYTES, 'image/jpeg', 'jpg'],
        ] as const) {
          const response = await fetch(`${server().url}/api/v1/compliance/kyc/${body.id}/documents/${slot}`, {
            headers: { authorization: `Bearer ${reviewer.token}` },
          });
          expect(response.status).toBe(200);
          expect(response.headers.get('content-type')).toBe(type);
          expect(response.headers.get('content-disposition')).toBe(
            `attachment; filename="${slot}-${body.id}.${extension}"`,
          );
          expect(response.headers.get('x-content-type-options')).toBe('nosniff');
          expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
          expect(response.headers.get('cache-control')).toBe('no-store');
          expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
        }
        const noSelfie = await server().request('GET', `/api/v1/compliance/kyc/${body.id}/documents/selfie`, {
          token: reviewer.token,
        });
        expect(noSelfie.status).toBe(404);
        expect(errorOf(noSelfie)).toEqual({ code: 'KYC_NOT_FOUND', message: 'Document not found' });
        const badSlot = await server().request('GET', `/api/v1/compliance/kyc/${body.id}/documents/..%2Fmeta`, {
          token: reviewer.token,
        });
        expect(badSlot.status).toBe(400);
      });

      it('approves once: the account is verified, its limit rises, it is told, and it cannot submit again', async () => {
        const person = await signUpPerson(server());
        const { body } = await submitValid(server(), person.token);
        const approved = await review(reviewer.token, body.id, { decision: 'approve' });
        expect(approved.status).toBe(200);
        expect(approved.body).toMatchObject({
          id: body.id,
          status: 'approved',
          reason: null,
          reviewed_by: reviewer.id,
          reviewed_at: expect.any(String),
          account_id: person.id,
        });

        const status = await server().request<KycStatusResponse>('GET', '/api/v1/kyc/status', { token: person.token });
        expect(status.body).toMatchObject({
          tier: 'verified',
          daily_withdrawal_limit_usd: '100000',
          can_submit: false,
          latest_submission: { id: body.id, status: 'approved' },
        });
        expect((await notificationsOf(person))[0]).toMatchObject({
          type: 'system',
          message: 'Verification approved',
          severity: 'success',
        });

        const again = await review(reviewer.token, body.id, { decision: 'reject', reason: 'Changed my mind' });
        expect(again.status).toBe(409);
        expect(errorOf(again)).toEqual({ code: 'KYC_NOT_PENDING', message: 'This verification was already reviewed' });
        const resubmitted = await submitValid(server(), person.token);
        expect(errorOf(resubmitted)).toEqual({
          code: 'KYC_ALREADY_APPROVED',
          message: 'Your account is already verified',
        });

        const audit = await server().db.query(
          'SELECT reviewer_id, reviewer_role, decision, reason FROM kyc_reviews WHERE submission_id = $1',
          [body.id],
        );
        expect(audit.rows).toEqual([
          { reviewer_id: reviewer.id, reviewer_role: 'compliance', decision: 'approve', reason: null },
        ]);
      });

      it('rejects with a reason (3-500 characters), and the account may submit again', async () => {
        const person = await signUpPerson(server());
        const { body } = await submitValid(server(), person.token);
        for (const [request, message] of [
          [{ decision: 'reject' }, 'A reason is required when rejecting'],
          [{ decision: 'reject', reason: '  ' }, 'A reason is required when rejecting'],
          [{ decision: 'reject', reason: 'no' }, 'Reason must be 3 to 500 characters'],
          [{ decision: 'reject', reason: 'x'.repeat(501) }, 'Reason must be 3 to 500 characters'],
          [{ decision: 'maybe' }, 'Decision must be approve or reject'],
        ] as const) {
          const refused = await review(reviewer.token, body.id, request);
          expect(refused.status).toBe(400);
          expect(errorOf(refused)).toMatchObject({ code: 'VALIDATION_ERROR', message });
        }

        const admin = await signUpReviewer(server(), 'admin');
        const rejected = await review(admin.session.token, body.id, {
          decision: 'reject',
          reason: 'The document photo is blurred',
        });
        expect(rejected.body).toMatchObject({ status: 'rejected', reason: 'The document photo is blurred' });
        const owner = await server().request<KycSubmission>('GET', `/v1/triple-a/kyc/${body.id}`, {
          token: person.token,
        });
        expect(owner.body).toMatchObject({ status: 'rejected', reason: 'The document photo is blurred' });
        expect((await notificationsOf(person))[0]).toMatchObject({
          message: 'Verification rejected: The document photo is blurred',
          severity: 'warning',
        });
        const status = await server().request<KycStatusResponse>('GET', '/api/v1/kyc/status', { token: person.token });
        expect(status.body).toMatchObject({ tier: 'unverified', daily_withdrawal_limit_usd: '2000', can_submit: true });

        const again = await submitValid(server(), person.token);
        expect(again.status).toBe(201);
        const latest = await server().request<KycStatusResponse>('GET', '/api/v1/kyc/status', { token: person.token });
        expect(latest.body.latest_submission).toMatchObject({ id: again.body.id, status: 'pending' });
        const audit = await server().db.query(
          'SELECT reviewer_role, decision, reason FROM kyc_reviews WHERE submission_id = $1',
          [body.id],
        );
        expect(audit.rows).toEqual([
          { reviewer_role: 'admin', decision: 'reject', reason: 'The document photo is blurred' },
        ]);
      });

      it('does not let a reviewer review their own verification, and 404s an unknown one', async () => {
        const own = await signUpReviewer(server());
        const { body } = await submitValid(server(), own.session.token);
        const self = await review(own.session.token, body.id, { decision: 'approve' });
        expect(self.status).toBe(403);
        expect(errorOf(self)?.message).toBe('You cannot review your own verification');
        const unknown = await review(reviewer.token, '00000000-0000-4000-8000-000000000000', { decision: 'approve' });
        expect(errorOf(unknown)?.code).toBe('KYC_NOT_FOUND');
      });
    });

    describe('documentation', () => {
      it('lists the KYC calls in the OpenAPI document', async () => {
        const docs = await server().request('GET', '/docs/json');
        expect(docs.status).toBe(200);
        expect(Object.keys(docs.body.paths)).toEqual(
          expect.arrayContaining([
            '/v1/triple-a/kyc/submit',
            '/v1/triple-a/kyc/{id}',
            '/api/v1/kyc/status',
            '/api/v1/compliance/kyc',
            '/api/v1/compliance/kyc/{id}',
            '/api/v1/compliance/kyc/{id}/documents/{slot}',
            '/api/v1/compliance/kyc/{id}/review',
          ]),
        );
      });
    });

    describe('the store after all of the above', () => {
      it('holds exactly the documents recorded, and no temp file', async () => {
        const keys = await server().db.query<{ storage_key: string }>('SELECT storage_key FROM kyc_documents');
        const expected = keys.rows.flatMap(({ storage_key }) => [`data/${storage_key}`, `meta/${storage_key}`]).sort();
        expect(storedFiles(server())).toEqual(expected);
      });
    });
  },
  { PRICE_FEED_ENABLED: 'false', RATE_LIMIT_ENABLED: 'false' },
);
