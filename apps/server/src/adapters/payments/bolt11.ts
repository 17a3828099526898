import crypto from 'node:crypto';
import bolt11 from 'bolt11';
import { deriveSecret } from './signatures.ts';

/**
 * Real BOLT11 invoices for the sandbox (third-party-apis.md §7): bech32 with the testnet prefix
 * `lntb`, payment_hash = sha256(preimage), a payment secret, a description and an expiry, signed
 * with a secp256k1 node key of ours. Any Lightning decoder reads them; no testnet wallet can pay
 * them (no node announces the key), which is what a sandbox wants: they are paid by the sandbox page.
 */

const TESTNET = { bech32: 'tb', pubKeyHash: 0x6f, scriptHash: 0xc4, validWitnessVersions: [0, 1] };

/** BOLT11 §"description": at most 639 bytes. */
export const MAX_DESCRIPTION_BYTES = 639;
/** Blocks the last hop must leave (BOLT11 default is 18; 9 is the library's and older default). */
const MIN_FINAL_CLTV_EXPIRY = 18;

/** The sandbox node's private key: derived from the data key, so stable across restarts. */
export function sandboxNodeKey(dataKey: string): Buffer {
  // A 32-byte HMAC is a valid secp256k1 scalar unless it is 0 or >= n, which has odds of ~2^-128;
  // the counter below makes even that case end well.
  for (let counter = 0; ; counter++) {
    const key = Buffer.from(deriveSecret(dataKey, `meridian sandbox lightning node key ${counter}`), 'hex');
    const scalar = BigInt(`0x${key.toString('hex')}`);
    if (scalar > 0n && scalar < SECP256K1_ORDER) return key;
  }
}
const SECP256K1_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

export type NewInvoice = {
  amountMsat: bigint;
  description: string;
  expirySeconds: number;
  /** Unix seconds of creation. */
  timestamp: number;
  nodeKey: Buffer;
};

export type MadeInvoice = { invoice: string; preimage: string; paymentHash: string; paymentSecret: string };

export function makeTestnetInvoice(input: NewInvoice): MadeInvoice {
  const preimage = crypto.randomBytes(32);
  const paymentHash = crypto.createHash('sha256').update(preimage).digest('hex');
  const paymentSecret = crypto.randomBytes(32).toString('hex');
  const unsigned = bolt11.encode(
    {
      network: TESTNET,
      millisatoshis: input.amountMsat.toString(),
      timestamp: input.timestamp,
      tags: [
        { tagName: 'payment_hash', data: paymentHash },
        { tagName: 'payment_secret', data: paymentSecret },
        { tagName: 'description', data: input.description },
        { tagName: 'expire_time', data: input.expirySeconds },
        { tagName: 'min_final_cltv_expiry', data: MIN_FINAL_CLTV_EXPIRY },
      ],
    },
    true,
  );
  const signed = bolt11.sign(unsigned, input.nodeKey);
  if (!signed.complete || !signed.paymentRequest) throw new Error('bolt11 did not sign the invoice');
  return { invoice: signed.paymentRequest, preimage: preimage.toString('hex'), paymentHash, paymentSecret };
}

export type DecodedInvoice = {
  complete: boolean;
  prefix: string;
  amountMsat: bigint | null;
  paymentHash: string | null;
  paymentSecret: string | null;
  description: string | null;
  expirySeconds: number | null;
  timestamp: number | null;
  payeeNodeKey: string | null;
};

/** Reads a BOLT11 string (any network); null when it is not one. */
export function decodeInvoice(invoice: string): DecodedInvoice | null {
  try {
    const decoded = bolt11.decode(invoice);
    return {
      complete: decoded.complete === true,
      prefix: decoded.prefix ?? '',
      amountMsat: decoded.millisatoshis ? BigInt(decoded.millisatoshis) : null,
      paymentHash: decoded.tagsObject.payment_hash ?? null,
      paymentSecret: decoded.tagsObject.payment_secret ?? null,
      description: decoded.tagsObject.description ?? null,
      expirySeconds: decoded.tagsObject.expire_time ?? null,
      timestamp: decoded.timestamp ?? null,
      payeeNodeKey: decoded.payeeNodeKey ?? null,
    };
  } catch {
    return null;
  }
}

/** BTC decimal text (at most 11 decimals) to millisatoshi: 1 BTC = 10^11 msat. */
export function btcToMsat(amountBtc: string): bigint | null {
  const match = /^(\d{1,8})(?:\.(\d{1,11}))?$/.exec(amountBtc);
  if (!match) return null;
  const [, whole = '0', fraction = ''] = match;
  return BigInt(whole) * 100_000_000_000n + BigInt(fraction.padEnd(11, '0'));
}
