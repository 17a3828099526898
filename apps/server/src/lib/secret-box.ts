import crypto from 'node:crypto';

/** AES-256-GCM with a fresh 96-bit IV per value: the recommended construction, authenticated. */
const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Sealed values carry a version so the key or construction can change without a flag day. */
const VERSION = 'v1';

/**
 * Seals small secrets (TOTP seeds) before they reach the database, so a copy of the database
 * alone does not let anyone compute a user's second factor.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(keyHex: string) {
    const key = Buffer.from(keyHex, 'hex');
    if (key.length !== 32) throw new Error('the data encryption key must be 32 bytes (64 hex characters)');
    this.key = key;
  }

  seal(plaintext: string): string {
    const iv = crypto.randomBytes(IV_BYTES);
    const cipher = crypto.createCipheriv(ALGORITHM, this.key, iv, { authTagLength: TAG_BYTES });
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv.toString('base64url'), Buffer.concat([body, cipher.getAuthTag()]).toString('base64url')].join(
      '.',
    );
  }

  /** The plaintext, or null when the value was not sealed with this key or was altered. */
  open(sealed: string): string | null {
    const [version, ivText, payloadText] = sealed.split('.');
    if (version !== VERSION || !ivText || !payloadText) return null;
    const payload = Buffer.from(payloadText, 'base64url');
    if (payload.length < TAG_BYTES) return null;
    try {
      const decipher = crypto.createDecipheriv(ALGORITHM, this.key, Buffer.from(ivText, 'base64url'), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAuthTag(payload.subarray(payload.length - TAG_BYTES));
      return Buffer.concat([
        decipher.update(payload.subarray(0, payload.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      return null;
    }
  }
}
