import { KYC_MAX_FILE_BYTES, type KycContentType } from '@platform/contracts';
import { localizedNumber } from '../../state/preferences-store.ts';

/**
 * Spec §5 KYC files, checked in the browser before anything is uploaded: PNG or JPG recognised by the
 * file's first bytes (never by its name or the type the browser guesses from it), and at most
 * 10 MB (§9, KYC_MAX_FILE_BYTES). The server checks the same again.
 */

/** i18n keys of the two §5 texts: 'File size too large', 'Invalid file type'. */
export const KYC_FILE_TOO_LARGE_KEY = 'wallet.kyc.files.tooLarge';
export const KYC_FILE_TYPE_INVALID_KEY = 'wallet.kyc.files.invalidType';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47] as const;
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff] as const;
/** The most bytes any signature needs. */
export const KYC_SIGNATURE_BYTES = 4;

const startsWith = (bytes: Uint8Array, signature: readonly number[]) =>
  bytes.length >= signature.length && signature.every((byte, index) => bytes[index] === byte);

/** The image type a file's first bytes announce: PNG 89 50 4E 47, JPEG FF D8 FF; anything else is null. */
export function sniffImageType(bytes: Uint8Array): KycContentType | null {
  if (startsWith(bytes, PNG_SIGNATURE)) return 'image/png';
  if (startsWith(bytes, JPEG_SIGNATURE)) return 'image/jpeg';
  return null;
}

/** The first bytes of a file (FileReader where Blob#arrayBuffer is missing). */
export async function readFileHeader(file: Blob, length = KYC_SIGNATURE_BYTES): Promise<Uint8Array> {
  const head = file.slice(0, length);
  if (typeof head.arrayBuffer === 'function') return new Uint8Array(await head.arrayBuffer());
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsArrayBuffer(head);
  });
}

export type KycFileCheck =
  | { ok: true; contentType: KycContentType }
  | { ok: false; errorKey: typeof KYC_FILE_TOO_LARGE_KEY | typeof KYC_FILE_TYPE_INVALID_KEY };

/** Size first (no need to read a file that is too large anyway), then the content's type. */
export async function checkKycFile(file: Blob, maxBytes = KYC_MAX_FILE_BYTES): Promise<KycFileCheck> {
  if (file.size > maxBytes) return { ok: false, errorKey: KYC_FILE_TOO_LARGE_KEY };
  let header: Uint8Array;
  try {
    header = await readFileHeader(file);
  } catch {
    return { ok: false, errorKey: KYC_FILE_TYPE_INVALID_KEY };
  }
  const contentType = sniffImageType(header);
  return contentType ? { ok: true, contentType } : { ok: false, errorKey: KYC_FILE_TYPE_INVALID_KEY };
}

/** '820 KB', '2.4 MB' ('2,4 MB' in German) for a file's size (a count of bytes, not money: plain numbers are fine). */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${localizedNumber((bytes / (1024 * 1024)).toFixed(1))} MB`;
}
