import fs from 'node:fs';
import path from 'node:path';
import QRCode from 'qrcode';
import type { TestServer } from '../../test/harness.ts';
import { type SignedUp, signUp } from '../auth/test-support.ts';
import { PROVIDER_PREFIX } from '../provider/routes.ts';
import { setAccountRole } from './grant-role-command.ts';

export const SUBMIT_PATH = `${PROVIDER_PREFIX}/kyc/submit`;

/** A real PNG (a QR code), as a camera app or scanner would never make it but file-type reads it. */
export function pngBytes(text = 'kyc'): Promise<Uint8Array> {
  return QRCode.toBuffer(text).then((buffer) => new Uint8Array(buffer));
}

/** The smallest well-formed JPEG (1x1 pixel, JFIF). */
export const JPEG_BYTES = Uint8Array.from(
  Buffer.from(
    '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////' +
      '////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
    'base64',
  ),
);
/** 1x1 GIF, a PDF header and plain text: none of them PNG or JPEG, whatever they are named. */
export const GIF_BYTES = Uint8Array.from(
  Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64'),
);
export const PDF_BYTES = new TextEncoder().encode(
  '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n',
);
export const TEXT_BYTES = new TextEncoder().encode('just some text, not an image\n');

/** A PNG of exactly `size` bytes: a real PNG's bytes, padded after its end (file-type reads the head). */
export async function pngOfSize(size: number): Promise<Uint8Array> {
  const png = await pngBytes();
  const bytes = new Uint8Array(size);
  bytes.set(png.subarray(0, Math.min(png.byteLength, size)));
  return bytes;
}

/** The §3.4 text fields of an adult with a driver's license (front and back needed). */
export function validFields(overrides: Record<string, string | undefined> = {}): Record<string, string> {
  const fields: Record<string, string | undefined> = {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    phone: '+44 20 7946 0958',
    dateOfBirth: '1990-05-17',
    country: 'gb',
    address: '12 St James Square',
    city: 'London',
    postalCode: 'SW1Y 4JH',
    documentType: "driver's license",
    documentNumber: 'LOVEL905170AB9',
    ...overrides,
  };
  return Object.fromEntries(
    Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

export type FilePart = { bytes: Uint8Array; name?: string; type?: string };

/** A multipart body as a browser builds it: text fields, then files with a name and a declared type. */
export function kycForm(fields: Record<string, string>, files: Record<string, FilePart>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const [name, file] of Object.entries(files)) {
    form.append(name, new Blob([file.bytes], { type: file.type ?? 'image/png' }), file.name ?? `${name}.png`);
  }
  return form;
}

// biome-ignore lint/suspicious/noExplicitAny: tests read bodies of many shapes, as the harness's request does.
export type KycResponse<T = any> = { status: number; body: T; headers: Headers };

/** Posts a form through the real HTTP stack (fetch sets the multipart boundary and Content-Length). */
export async function submitKyc(server: TestServer, token: string, form: FormData): Promise<KycResponse> {
  const response = await fetch(`${server.url}${SUBMIT_PATH}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}

/** A valid submission: driver's license front (PNG) and back (JPEG). */
export async function submitValid(server: TestServer, token: string, overrides: Record<string, string> = {}) {
  return submitKyc(
    server,
    token,
    kycForm(validFields(overrides), {
      documentFront: { bytes: await pngBytes('front') },
      documentBack: { bytes: JPEG_BYTES, name: 'back.jpg', type: 'image/jpeg' },
    }),
  );
}

/** An account made a reviewer the way an operator does it (the grant-role command's function). */
export async function signUpReviewer(server: TestServer, role: 'compliance' | 'admin' = 'compliance') {
  const user = await signUp(server);
  await setAccountRole(server.db, user.email, role);
  return user;
}

export type Person = SignedUp & { id: string; token: string };
export async function signUpPerson(server: TestServer): Promise<Person> {
  const user = await signUp(server);
  return { ...user, id: user.session.account_id, token: user.session.token };
}

/** Files in the object store (data and meta); temp files are included so that a leftover shows. */
export function storedFiles(server: TestServer): string[] {
  const root = server.config.kycStorageDir;
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[])
    .filter((name) => fs.statSync(path.join(root, name)).isFile())
    .sort();
}

/** Rows the module keeps for an account: submissions and their documents. */
export async function rowsOf(
  server: TestServer,
  accountId: string,
): Promise<{ submissions: number; documents: number }> {
  const found = await server.db.query<{ submissions: string; documents: string }>(
    `SELECT (SELECT count(*) FROM kyc_submissions WHERE account_id = $1)::text AS submissions,
       (SELECT count(*) FROM kyc_documents d JOIN kyc_submissions s ON s.id = d.submission_id
        WHERE s.account_id = $1)::text AS documents`,
    [accountId],
  );
  const row = found.rows[0];
  return { submissions: Number(row?.submissions ?? 0), documents: Number(row?.documents ?? 0) };
}
