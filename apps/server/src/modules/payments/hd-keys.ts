import { ed25519 } from '@noble/curves/ed25519.js';
import { hkdf } from '@noble/hashes/hkdf.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { hex } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { concatBytes } from './address-codecs.ts';

/**
 * The key tree every deposit address is derived from: BIP32 (secp256k1 chains) and SLIP-10
 * (ed25519 chains) from one seed. Only public keys leave this file; the seed is the custody key of
 * the sandbox chain, so a real deployment sets WALLET_HD_SEED from its key store (or keeps the
 * derived one and backs up the data key).
 */

/** HKDF info of the seed derived from the data key: changing it changes every address. */
export const HD_SEED_LABEL = 'platform/deposit-addresses/hd-seed/v1';
const HD_SEED_BYTES = 64;

/** WALLET_HD_SEED when configured, else 64 bytes derived from the data key (HKDF-SHA256, fixed label). */
export function hdSeedOf(walletHdSeed: string | undefined, dataKey: string): Uint8Array {
  if (walletHdSeed) return hex.decode(walletHdSeed.toLowerCase());
  return hkdf(sha256, hex.decode(dataKey), undefined, new TextEncoder().encode(HD_SEED_LABEL), HD_SEED_BYTES);
}

const HARDENED = 0x80000000;

function parsePath(path: string): number[] {
  const parts = path.split('/');
  if (parts[0] !== 'm') throw new Error(`derivation path ${path} does not start with m`);
  return parts.slice(1).map((part) => {
    const hardened = part.endsWith("'");
    const index = Number(hardened ? part.slice(0, -1) : part);
    if (!Number.isInteger(index) || index < 0 || index >= HARDENED) throw new Error(`bad path element ${part}`);
    return hardened ? index + HARDENED : index;
  });
}

/** Derives public keys from one seed; the roots are computed once per seed. */
export class KeyTree {
  private readonly secpRoot: HDKey;
  private readonly edRoot: { key: Uint8Array; chainCode: Uint8Array };

  constructor(seed: Uint8Array) {
    this.secpRoot = HDKey.fromMasterSeed(seed);
    const master = hmac(sha512, new TextEncoder().encode('ed25519 seed'), seed);
    this.edRoot = { key: master.slice(0, 32), chainCode: master.slice(32) };
  }

  /** BIP32 secp256k1: the compressed public key (33 bytes) at path. */
  secp256k1PublicKey(path: string): Uint8Array {
    const key = this.secpRoot.derive(path).publicKey;
    if (!key) throw new Error(`no public key at ${path}`);
    return key;
  }

  /** SLIP-10 ed25519 private key (32 bytes) at path; every element must be hardened. */
  ed25519PrivateKey(path: string): Uint8Array {
    let { key, chainCode } = this.edRoot;
    for (const index of parsePath(path)) {
      if (index < HARDENED) throw new Error(`SLIP-10 ed25519 derives hardened keys only (${path})`);
      const data = concatBytes(
        Uint8Array.of(0),
        key,
        Uint8Array.of(index >>> 24, (index >>> 16) & 0xff, (index >>> 8) & 0xff, index & 0xff),
      );
      const digest = hmac(sha512, chainCode, data);
      key = digest.slice(0, 32);
      chainCode = digest.slice(32);
    }
    return key;
  }

  ed25519PublicKey(path: string): Uint8Array {
    return ed25519.getPublicKey(this.ed25519PrivateKey(path));
  }
}
