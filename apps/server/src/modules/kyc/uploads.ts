import type { IncomingMessage } from 'node:http';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import {
  type ErrorCode,
  errorCatalogue,
  KYC_ALLOWED_CONTENT_TYPES,
  KYC_DOCUMENT_SLOTS,
  KYC_MAX_FILE_BYTES,
  type KycContentType,
  type KycDocumentSlot,
} from '@platform/contracts';
import type { FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import { newObjectKey, type ObjectStore } from '../../adapters/object-store/index.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import type { NewDocument } from './queries.ts';

/** The §3.4 text fields, by their form names; any other text field is ignored. */
export const KYC_TEXT_FIELDS = [
  'firstName',
  'lastName',
  'email',
  'phone',
  'dateOfBirth',
  'country',
  'address',
  'city',
  'postalCode',
  'documentType',
  'documentNumber',
] as const;

/**
 * What busboy lets through (registered with @fastify/multipart in the KYC scope only). Every limit
 * bounds memory or work per request: three files of 10 MiB at most (streamed, never buffered
 * whole), a few dozen short text fields, few part headers.
 */
/** The §3.4 fields and a few extras a form may add (a step marker, a CSRF token). */
const MAX_TEXT_FIELDS = 20;
/** Longest form field name in bytes: ours are under 20 characters; a long one is not a form of ours. */
const MAX_FIELD_NAME_BYTES = 64;

export const KYC_MULTIPART_LIMITS = {
  fileSize: KYC_MAX_FILE_BYTES,
  files: KYC_DOCUMENT_SLOTS.length,
  fields: MAX_TEXT_FIELDS,
  /** Longest text value in bytes: the longest field (address, 200 characters) in UTF-8 with room to spare. */
  fieldSize: 1024,
  fieldNameSize: MAX_FIELD_NAME_BYTES,
  parts: KYC_DOCUMENT_SLOTS.length + MAX_TEXT_FIELDS,
  /** Header lines per part: a part needs two (disposition, type); more is not a browser's form. */
  headerPairs: 20,
};

/** Room for the text fields and the multipart framing around the files (a few KiB in practice). */
const FIELDS_AND_FRAMING_BYTES = 1024 * 1024;

/**
 * The largest whole request: every file at its limit plus a generous allowance for the text
 * fields and multipart framing. A Content-Length above it is refused before a byte is read, and a
 * body without one is cut off when it passes it.
 */
export const KYC_MAX_REQUEST_BYTES = KYC_DOCUMENT_SLOTS.length * KYC_MAX_FILE_BYTES + FIELDS_AND_FRAMING_BYTES;

/** file-type's own sample size: every PNG and JPEG is recognised from this many leading bytes. */
const SNIFF_BYTES = 4100;

export type Upload = { fields: Map<string, string>; documents: NewDocument[] };

/** An upload refused for what it contains: the route answers with this code (and message). */
class Refusal {
  constructor(
    readonly code: ErrorCode,
    readonly message?: string,
    /** The form field at fault, for VALIDATION_ERROR details. */
    readonly path?: string,
  ) {}
}

/** A failure while reading the request body (cut short, malformed, past a busboy limit). */
class UnreadableBody extends Error {}

/** Thrown into the store's write when busboy reports the file past its size limit. */
class FileTooLarge extends Error {}

const isSlot = (name: string): name is KycDocumentSlot => (KYC_DOCUMENT_SLOTS as readonly string[]).includes(name);
const isTextField = (name: string) => (KYC_TEXT_FIELDS as readonly string[]).includes(name);
const isAllowedType = (mime: string): mime is KycContentType =>
  (KYC_ALLOWED_CONTENT_TYPES as readonly string[]).includes(mime);

/**
 * Reads a KYC multipart body: text fields into a map, each file streamed into the object store
 * under a fresh random key after its first bytes were recognised as PNG or JPEG. Sizes are judged
 * by what arrives, types by content only (the part's file name and declared type are ignored).
 *
 * All or nothing: on any refusal the rest of the body is still read (bounded by the limits) so the
 * client gets the answer rather than a reset connection, every file already stored is deleted, and
 * the refusal is the result. The caller owns the returned documents and deletes them if it cannot
 * record them.
 */
export async function receiveUpload(request: FastifyRequest, store: ObjectStore): Promise<Result<Upload>> {
  const fields = new Map<string, string>();
  const documents: NewDocument[] = [];
  let refusal: Refusal | undefined;
  const refuse = (next: Refusal) => {
    refusal ??= next;
  };
  try {
    const parts = readParts(request, KYC_MAX_REQUEST_BYTES);
    for await (const part of parts) {
      if (part.type === 'field') {
        if (refusal || !isTextField(part.fieldname)) continue;
        const name = part.fieldname;
        if (part.valueTruncated) refuse(new Refusal('VALIDATION_ERROR', `${name} is too long`, name));
        else if (fields.has(name)) refuse(new Refusal('VALIDATION_ERROR', `${name} was sent more than once`, name));
        else fields.set(name, typeof part.value === 'string' ? part.value : String(part.value));
        continue;
      }
      if (refusal) {
        await drain(part.file);
        continue;
      }
      if (!isSlot(part.fieldname)) {
        await drain(part.file);
        refuse(
          new Refusal('VALIDATION_ERROR', `Unexpected file field ${part.fieldname.slice(0, MAX_FIELD_NAME_BYTES)}`),
        );
        continue;
      }
      if (documents.some((document) => document.slot === part.fieldname)) {
        await drain(part.file);
        refuse(new Refusal('VALIDATION_ERROR', `${part.fieldname} was sent more than once`, part.fieldname));
        continue;
      }
      const stored = await storeFile(store, part, part.fieldname);
      if (stored instanceof Refusal) refuse(new Refusal(stored.code, stored.message, part.fieldname));
      else if (stored) documents.push(stored);
    }
  } catch (error) {
    await deleteDocuments(store, documents);
    if (error instanceof UnreadableBody || isMultipartError(error)) {
      return fail('VALIDATION_ERROR', { message: unreadableMessage(error) });
    }
    throw error;
  }
  if (refusal) {
    await deleteDocuments(store, documents);
    const { code, message, path } = refusal;
    return fail(code, {
      ...(message !== undefined ? { message } : {}),
      ...(path !== undefined
        ? { details: { issues: [{ path, message: message ?? errorCatalogue[code].message }] } }
        : {}),
    });
  }
  return ok({ fields, documents });
}

/**
 * The parts of the body; errors of the body itself (not of our store) come out as UnreadableBody.
 * The first next() pipes the request into busboy synchronously, so the byte counter attached right
 * after it sees every chunk busboy sees.
 */
async function* readParts(request: FastifyRequest, maxBytes: number): AsyncGenerator<Multipart> {
  const iterator = request.parts();
  let pending = iterator.next();
  capBody(request.raw, maxBytes);
  for (;;) {
    let next: IteratorResult<Multipart>;
    try {
      next = await pending;
    } catch (error) {
      throw isMultipartError(error) ? error : new UnreadableBody(String(error), { cause: error });
    }
    if (next.done) return;
    yield next.value;
    pending = iterator.next();
  }
}

/**
 * Cuts off a body that keeps coming past `maxBytes` (one sent without Content-Length; a declared
 * length is checked before reading). Destroying the socket ends the parse with an error, and the
 * files stored so far are deleted.
 */
function capBody(raw: IncomingMessage, maxBytes: number): void {
  let received = 0;
  const count = (chunk: Buffer) => {
    received += chunk.byteLength;
    if (received > maxBytes) {
      raw.off('data', count);
      raw.destroy();
    }
  };
  raw.on('data', count);
}

/** Reads a file part chunk by chunk through one iterator; a failure of the body comes out as UnreadableBody. */
function chunkReader(file: MultipartFile['file']) {
  const chunks = file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let ended = false;
  const read = async (): Promise<Buffer | undefined> => {
    if (ended) return undefined;
    try {
      const next = await chunks.next();
      if (next.done) ended = true;
      return next.done ? undefined : next.value;
    } catch (error) {
      throw new UnreadableBody(String(error), { cause: error });
    }
  };
  /** Reads to the end, discarding, so busboy moves on to the next part. */
  const drainRest = async (): Promise<void> => {
    while ((await read()) !== undefined) {
      // discarded
    }
  };
  return { read, drainRest };
}

/**
 * Sniffs the file's first bytes, then streams it into the store. Null for an empty part (a form's
 * file input left empty sends one), a Refusal for a wrong type or a file past the limit.
 */
async function storeFile(
  store: ObjectStore,
  part: MultipartFile,
  slot: KycDocumentSlot,
): Promise<NewDocument | Refusal | null> {
  const { read, drainRest } = chunkReader(part.file);
  const head: Buffer[] = [];
  let headBytes = 0;
  for (let chunk = await read(); chunk !== undefined; chunk = headBytes < SNIFF_BYTES ? await read() : undefined) {
    head.push(chunk);
    headBytes += chunk.byteLength;
  }
  if (headBytes === 0) return null;

  const sniffed = await fileTypeFromBuffer(Buffer.concat(head));
  if (!sniffed || !isAllowedType(sniffed.mime)) {
    await drainRest();
    // Too large wins over the type: either way it is what the user must fix first.
    return part.file.truncated ? new Refusal('FILE_TOO_LARGE') : new Refusal('FILE_TYPE_INVALID');
  }
  const contentType = sniffed.mime;

  async function* body(): AsyncGenerator<Buffer> {
    for (const chunk of head) yield chunk;
    if (part.file.truncated) throw new FileTooLarge();
    for (let chunk = await read(); chunk !== undefined; chunk = await read()) {
      yield chunk;
      if (part.file.truncated) throw new FileTooLarge();
    }
  }
  const key = newObjectKey();
  try {
    const { sizeBytes } = await store.put(key, body(), contentType);
    return { slot, key, contentType, sizeBytes };
  } catch (error) {
    if (error instanceof FileTooLarge) {
      await drainRest();
      return new Refusal('FILE_TOO_LARGE');
    }
    // The store promises nothing was left; deleting again costs little and covers a store that failed late.
    await store.delete(key).catch(() => undefined);
    throw error;
  }
}

/** Reads a file part nobody wants to its end, so busboy moves on to the next part. */
function drain(file: MultipartFile['file']): Promise<void> {
  return chunkReader(file).drainRest();
}

export async function deleteDocuments(store: ObjectStore, documents: readonly NewDocument[]): Promise<void> {
  await Promise.all(documents.map((document) => store.delete(document.key)));
}

/** Errors @fastify/multipart raises for the body (limits, prototype names, premature close). */
function isMultipartError(error: unknown): error is Error & { code: string } {
  return (
    error instanceof Error &&
    'code' in error &&
    typeof error.code === 'string' &&
    error.code.startsWith('FST_') &&
    error.code !== 'FST_REQ_FILE_TOO_LARGE'
  );
}

function unreadableMessage(error: unknown): string {
  const code = isMultipartError(error) ? error.code : undefined;
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return 'Too many files or fields in the form';
  }
  return 'The form data could not be read';
}
