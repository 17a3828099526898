import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { blake2b } from '@noble/hashes/blake2.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha224, sha256, sha512_256 } from '@noble/hashes/sha2.js';
import { keccak_256, sha3_256 } from '@noble/hashes/sha3.js';
import {
  base32,
  base32nopad,
  base58,
  base58xmr,
  base58xrp,
  base64url,
  bech32,
  createBase58check,
  hex,
} from '@scure/base';
import { getAddress } from 'viem';

/**
 * Address encoders of every chain family we take deposits on: public key in, the chain's own
 * address text out, with the chain's checksum. Pure; each is unit-tested against published
 * vectors (address-codecs.test.ts).
 */

const base58check = createBase58check(sha256);

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

const hash160 = (bytes: Uint8Array) => ripemd160(sha256(bytes));
const utf8 = (text: string) => new TextEncoder().encode(text);

/** A compressed secp256k1 public key (33 bytes) in its uncompressed form (65 bytes, 0x04 first). */
export function uncompressed(publicKey: Uint8Array): Uint8Array {
  return secp256k1.Point.fromBytes(publicKey).toBytes(false);
}

/** BIP173 segwit v0 pay-to-witness-public-key-hash: bc1q... (BTC), ltc1q... (LTC). */
export function p2wpkhAddress(hrp: string, publicKey: Uint8Array): string {
  return bech32.encode(hrp, [0, ...bech32.toWords(hash160(publicKey))]);
}

/** Legacy pay-to-public-key-hash, base58check with the chain's version bytes (DOGE 0x1e: D...; ZEC 0x1cb8: t1...). */
export function p2pkhAddress(version: readonly number[], publicKey: Uint8Array): string {
  return base58check.encode(concatBytes(Uint8Array.from(version), hash160(publicKey)));
}

const CASHADDR_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const CASHADDR_GENERATORS = [0x98f2bc8e61n, 0x79b76d99e2n, 0xf33e5fb3c4n, 0xae2eabe2a8n, 0x1e4f43e470n];

function cashaddrPolymod(values: readonly number[]): bigint {
  let checksum = 1n;
  for (const value of values) {
    const top = checksum >> 35n;
    checksum = ((checksum & 0x07ffffffffn) << 5n) ^ BigInt(value);
    CASHADDR_GENERATORS.forEach((generator, bit) => {
      if ((top >> BigInt(bit)) & 1n) checksum ^= generator;
    });
  }
  return checksum ^ 1n;
}

/**
 * Bitcoin Cash CashAddr (the format BCH wallets and exchanges show): prefix 'bitcoincash', type
 * 0 (P2PKH), 160-bit hash, 40-bit BCH checksum over the prefix's low bits and the payload.
 */
export function cashAddress(publicKeyHash: Uint8Array, prefix = 'bitcoincash'): string {
  const versionByte = 0; // type 0 (P2KH), size 0 (160 bits)
  const payload = bech32.toWords(concatBytes(Uint8Array.of(versionByte), publicKeyHash));
  const prefixValues = [...prefix].map((char) => char.charCodeAt(0) & 0x1f);
  const checksum = cashaddrPolymod([...prefixValues, 0, ...payload, 0, 0, 0, 0, 0, 0, 0, 0]);
  const checksumWords = Array.from({ length: 8 }, (_, i) => Number((checksum >> BigInt(5 * (7 - i))) & 0x1fn));
  return `${prefix}:${[...payload, ...checksumWords].map((word) => CASHADDR_CHARSET[word]).join('')}`;
}

export const bitcoinCashAddress = (publicKey: Uint8Array) => cashAddress(hash160(publicKey));

/** The 20-byte account of an EVM chain: the last 20 bytes of keccak256 of the uncompressed key. */
function evmAccountBytes(publicKey: Uint8Array): Uint8Array {
  return keccak_256(uncompressed(publicKey).slice(1)).slice(12);
}

/** EIP-55 mixed-case checksum address (every EVM network: Ethereum, BNB Smart Chain, Polygon, ...). */
export function evmAddress(publicKey: Uint8Array): string {
  return getAddress(`0x${hex.encode(evmAccountBytes(publicKey))}`);
}

/** Tron: 0x41 + the EVM account bytes, base58check: T... */
export function tronAddress(publicKey: Uint8Array): string {
  return base58check.encode(concatBytes(Uint8Array.of(0x41), evmAccountBytes(publicKey)));
}

/** XRP Ledger classic address: account id (hash160) with type 0, base58check in the XRP alphabet: r... */
export function xrpAddress(publicKey: Uint8Array): string {
  const payload = concatBytes(Uint8Array.of(0), hash160(publicKey));
  return base58xrp.encode(concatBytes(payload, sha256(sha256(payload)).slice(0, 4)));
}

/** CRC16-XModem (Stellar strkey, TON user-friendly addresses). */
export function crc16Xmodem(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** Stellar account id (strkey): version byte 6 << 3, the ed25519 key, CRC16 little-endian, base32: G... */
export function stellarAddress(publicKey: Uint8Array): string {
  const payload = concatBytes(Uint8Array.of(6 << 3), publicKey);
  const crc = crc16Xmodem(payload);
  return base32.encode(concatBytes(payload, Uint8Array.of(crc & 0xff, crc >> 8)));
}

/** Cosmos SDK account: bech32 of hash160 of the compressed key (cosmos1..., sei1...). */
export function cosmosAddress(hrp: string, publicKey: Uint8Array): string {
  return bech32.encode(hrp, bech32.toWords(hash160(publicKey)));
}

/** Solana: the ed25519 public key in base58. */
export const solanaAddress = (publicKey: Uint8Array) => base58.encode(publicKey);

/** Algorand: the ed25519 key and the last 4 bytes of its SHA-512/256, base32 without padding (58 characters). */
export function algorandAddress(publicKey: Uint8Array): string {
  return base32nopad.encode(concatBytes(publicKey, sha512_256(publicKey).slice(-4)));
}

/** NEAR implicit account: the ed25519 key in hex (64 characters). */
export const nearAddress = (publicKey: Uint8Array) => hex.encode(publicKey);

/** Sui: 0x + BLAKE2b-256 of the ed25519 flag byte (0) and the key. */
export function suiAddress(publicKey: Uint8Array): string {
  return `0x${hex.encode(blake2b(concatBytes(Uint8Array.of(0), publicKey), { dkLen: 32 }))}`;
}

/** Aptos single-key ed25519 account: 0x + SHA3-256 of the key and the scheme byte 0. */
export function aptosAddress(publicKey: Uint8Array): string {
  return `0x${hex.encode(sha3_256(concatBytes(publicKey, Uint8Array.of(0))))}`;
}

/** Tezos tz1: BLAKE2b-160 of the ed25519 key, base58check with the tz1 prefix. */
export function tezosAddress(publicKey: Uint8Array): string {
  return base58check.encode(concatBytes(Uint8Array.of(6, 161, 159), blake2b(publicKey, { dkLen: 20 })));
}

/** Polkadot SS58 (network prefix 0: 1...): key and a 2-byte BLAKE2b-512 checksum over 'SS58PRE' and both. */
export function polkadotAddress(publicKey: Uint8Array, networkPrefix = 0): string {
  const data = concatBytes(Uint8Array.of(networkPrefix), publicKey);
  const checksum = blake2b(concatBytes(utf8('SS58PRE'), data), { dkLen: 64 }).slice(0, 2);
  return base58.encode(concatBytes(data, checksum));
}

/** Cardano Shelley enterprise address (header 0x61: key hash, no stake part, mainnet): addr1v... */
export function cardanoEnterpriseAddress(publicKey: Uint8Array): string {
  const bytes = concatBytes(Uint8Array.of(0x61), blake2b(publicKey, { dkLen: 28 }));
  return bech32.encode('addr', bech32.toWords(bytes), false);
}

const CRC32_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC32_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** DER SubjectPublicKeyInfo prefix of an uncompressed secp256k1 key (what ICP principals hash). */
const SECP256K1_DER_PREFIX = hex.decode('3056301006072a8648ce3d020106052b8104000a034200');

/**
 * Internet Computer ledger account identifier (the hex exchanges show): the self-authenticating
 * principal of a secp256k1 key, its default sub-account, SHA-224 and a CRC32 in front.
 */
export function icpAccountId(publicKey: Uint8Array): string {
  const principal = concatBytes(sha224(concatBytes(SECP256K1_DER_PREFIX, uncompressed(publicKey))), Uint8Array.of(2));
  const hash = sha224(concatBytes(Uint8Array.of(0x0a), utf8('account-id'), principal, new Uint8Array(32)));
  const crc = crc32(hash);
  return hex.encode(concatBytes(Uint8Array.of(crc >>> 24, (crc >>> 16) & 0xff, (crc >>> 8) & 0xff, crc & 0xff), hash));
}

/** Filecoin secp256k1 address: f1 + base32 (lower case, no padding) of BLAKE2b-160 of the key and a 4-byte checksum. */
export function filecoinAddress(publicKey: Uint8Array): string {
  const payload = blake2b(uncompressed(publicKey), { dkLen: 20 });
  const checksum = blake2b(concatBytes(Uint8Array.of(1), payload), { dkLen: 4 });
  return `f1${base32nopad.encode(concatBytes(payload, checksum)).toLowerCase()}`;
}

/**
 * TON user-friendly address (bounceable, basechain): tag 0x11, workchain 0, the 32-byte account
 * id, CRC16 big-endian, base64url. The account id here is SHA-256 of our ed25519 key, not the hash
 * of a wallet contract's state init: valid in format, for the sandbox chain (docs/payments.md).
 */
export function tonAddress(publicKey: Uint8Array): string {
  const body = concatBytes(Uint8Array.of(0x11, 0x00), sha256(publicKey));
  const crc = crc16Xmodem(body);
  return base64url.encode(concatBytes(body, Uint8Array.of(crc >> 8, crc & 0xff)));
}

const EOS_NAME_CHARSET = 'abcdefghijklmnopqrstuvwxyz12345';

/**
 * An EOS account name (12 characters of a-z and 1-5) picked from a key's hash. EOS accounts are
 * registered on chain, not derived: this is the name the exchange's deposit account would carry.
 */
export function eosAccountName(publicKey: Uint8Array): string {
  const hash = sha256(publicKey);
  return Array.from(hash.slice(0, 12), (byte) => EOS_NAME_CHARSET[byte % EOS_NAME_CHARSET.length]).join('');
}

/**
 * A Hedera account id (shard.realm.number). Hedera numbers accounts as they are created; this
 * picks the number of the exchange's deposit account from a key's hash, for the sandbox chain.
 */
export function hederaAccountId(publicKey: Uint8Array): string {
  const hash = sha256(publicKey);
  const number = 100_000 + (((hash[0] ?? 0) << 16) | ((hash[1] ?? 0) << 8) | (hash[2] ?? 0));
  return `0.0.${number}`;
}

// Monero: ed25519 scalars and points, keccak-256, its own block-wise base58.
const ED25519_ORDER = ed25519.Point.Fn.ORDER;
const bytesToScalar = (bytes: Uint8Array) => {
  let value = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) value = (value << 8n) | BigInt(bytes[i] ?? 0);
  return value % ED25519_ORDER;
};
const scalarToBytes = (scalar: bigint) => {
  const out = new Uint8Array(32);
  let value = scalar;
  for (let i = 0; i < 32; i++) {
    out[i] = Number(value & 0xffn);
    value >>= 8n;
  }
  return out;
};
const u32le = (value: number) => Uint8Array.of(value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, value >>> 24);

/** Monero keys from 32 bytes of seed, as Monero's own wallets make them: spend = reduce(seed), view = reduce(keccak(spend)). */
export function moneroKeys(seed: Uint8Array): { spendSecret: bigint; viewSecret: bigint } {
  const spendSecret = bytesToScalar(seed);
  const viewSecret = bytesToScalar(keccak_256(scalarToBytes(spendSecret)));
  return { spendSecret, viewSecret };
}

function moneroEncode(prefix: number, spendPublic: Uint8Array, viewPublic: Uint8Array): string {
  const data = concatBytes(Uint8Array.of(prefix), spendPublic, viewPublic);
  return base58xmr.encode(concatBytes(data, keccak_256(data).slice(0, 4)));
}

/**
 * Monero mainnet address of (account 0, index): the primary address (4...) for index 0, else the
 * subaddress (8...): D = B + Hs('SubAddr\0' || a || 0 || index)·G, C = a·D.
 */
export function moneroAddress(seed: Uint8Array, index: number): string {
  const { spendSecret, viewSecret } = moneroKeys(seed);
  const G = ed25519.Point.BASE;
  const spendPublic = G.multiply(spendSecret);
  if (index === 0) return moneroEncode(18, spendPublic.toBytes(), G.multiply(viewSecret).toBytes());
  const m = bytesToScalar(
    keccak_256(concatBytes(utf8('SubAddr\0'), scalarToBytes(viewSecret), u32le(0), u32le(index))),
  );
  const subSpend = spendPublic.add(G.multiply(m));
  return moneroEncode(42, subSpend.toBytes(), subSpend.multiply(viewSecret).toBytes());
}
