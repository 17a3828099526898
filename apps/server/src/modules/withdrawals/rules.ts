import { createRequire } from 'node:module';
import type { AddressFormat, WithdrawalNetwork } from '@platform/contracts';
import { isAddress } from 'viem';
import { fail, ok, type Result } from '../../lib/errors.ts';

// The network rule is the wallet's too (its fee estimate reads it), so it lives with the wallet's rules.
export { parseNetwork } from '../wallet/rules.ts';

/**
 * The destination rules of a withdrawal (spec §5), pure: the address (at least 10 characters after
 * trimming, then the currency's format) and the optional destination tag. The amount, currency,
 * decimals and minimum rules are the wallet's (wallet/rules.ts, wallet/fees.ts).
 */

/** §5: shorter than this after trimming is 'Please enter a valid wallet address'. */
export const MIN_ADDRESS_LENGTH = 10;
/** XRP destination tags are unsigned 32-bit integers. */
export const MAX_XRP_DESTINATION_TAG = 4_294_967_295n;
/** A memo or tag for the other networks (Stellar memos are 28 bytes, EOS 256; providers cap theirs). */
export const MAX_EXTRA_ID_LENGTH = 64;

// multicoin-address-validator ships CommonJS without types: loaded through require, typed here.
type AddressValidator = {
  validate(address: string, currency: string, options?: { networkType?: 'prod' | 'testnet' | 'both' }): boolean;
};
const addressValidator = createRequire(import.meta.url)('multicoin-address-validator') as AddressValidator;

/**
 * The spec's patterns (§5: btc, eth, ltc, xrp, usdt and usdc; usdt and usdc in the Ethereum
 * format), as a first, cheap shape check. The checksums come after: base58check and bech32/bech32m
 * by multicoin-address-validator for btc, ltc and xrp; EIP-55 by viem's isAddress for the Ethereum
 * format (an all-lower or all-upper case address has no checksum and is accepted, as wallets do).
 */
const ETHEREUM_PATTERN = /^0x[0-9a-fA-F]{40}$/;
const ADDRESS_FORMATS: Readonly<Record<string, { pattern: RegExp; checksum: (address: string) => boolean }>> = {
  BTC: {
    pattern: /^(?:[13mn2][1-9A-HJ-NP-Za-km-z]{25,34}|(?:bc1|tb1|bcrt1)[02-9ac-hj-np-z]{8,87})$/i,
    checksum: (address) => addressValidator.validate(address, 'btc', { networkType: 'both' }),
  },
  LTC: {
    pattern: /^(?:[LM3mnQ2][1-9A-HJ-NP-Za-km-z]{25,34}|(?:ltc1|tltc1)[02-9ac-hj-np-z]{8,87})$/i,
    checksum: (address) => addressValidator.validate(address, 'ltc', { networkType: 'both' }),
  },
  XRP: {
    pattern: /^r[1-9A-HJ-NP-Za-km-z]{24,34}$/,
    checksum: (address) => addressValidator.validate(address, 'xrp', { networkType: 'both' }),
  },
  ETH: { pattern: ETHEREUM_PATTERN, checksum: (address) => isAddress(address) },
  USDT: { pattern: ETHEREUM_PATTERN, checksum: (address) => isAddress(address) },
  USDC: { pattern: ETHEREUM_PATTERN, checksum: (address) => isAddress(address) },
};

/**
 * Address formats of the withdrawal networks (contracts withdrawal-networks.ts): a shape, then the
 * checksum (base58check for Tron, 32-byte base58 keys for Solana, Tezos' base58check, EOS account
 * names), all by multicoin-address-validator except EVM chains (viem, EIP-55).
 */
const NETWORK_FORMATS: Readonly<Record<AddressFormat, { pattern: RegExp; checksum: (address: string) => boolean }>> = {
  evm: { pattern: ETHEREUM_PATTERN, checksum: (address) => isAddress(address) },
  tron: {
    pattern: /^T[1-9A-HJ-NP-Za-km-z]{33}$/,
    checksum: (address) => addressValidator.validate(address, 'trx', { networkType: 'both' }),
  },
  solana: {
    pattern: /^[1-9A-HJ-NP-Za-km-z]{32,44}$/,
    checksum: (address) => addressValidator.validate(address, 'sol', { networkType: 'both' }),
  },
  tezos: {
    pattern: /^(?:tz[1-4]|KT1)[1-9A-HJ-NP-Za-km-z]{33}$/,
    checksum: (address) => addressValidator.validate(address, 'xtz', { networkType: 'both' }),
  },
  eos: { pattern: /^[a-z1-5.]{1,12}$/, checksum: (address) => addressValidator.validate(address, 'eos') },
};

/** Currencies whose addresses are format-checked; any other currency's address only needs its length. */
export const FORMAT_CHECKED_CURRENCIES: readonly string[] = Object.keys(ADDRESS_FORMATS);

/** §5: at least 10 characters after trimming, then the currency's format ('Invalid {X} address format'). */
export function parseAddress(input: string, currency: string, network?: WithdrawalNetwork): Result<string> {
  const address = input.trim();
  if (address.length < MIN_ADDRESS_LENGTH) return fail('ADDRESS_INVALID', { details: { field: 'address' } });
  const format = network ? NETWORK_FORMATS[network.address_format] : ADDRESS_FORMATS[currency];
  if (format !== undefined && !(format.pattern.test(address) && format.checksum(address))) {
    return fail('ADDRESS_FORMAT_INVALID', {
      // The network is named when the user picked one: "Invalid USDT address format for Tron (TRC-20)".
      message:
        network?.is_default === false
          ? `Invalid ${currency} address format for ${network.name}`
          : `Invalid ${currency} address format`,
      details: { field: 'address', ...(network ? { network: network.network } : {}) },
    });
  }
  return ok(address);
}

/**
 * The optional destination tag or memo (§3.5 extra_id): for XRP an integer 0..4294967295, else any
 * short text. Empty means none. Answers the text stored and sent to the provider.
 */
export function parseExtraId(input: string | number | null | undefined, currency: string): Result<string | null> {
  if (input === undefined || input === null) return ok(null);
  const invalid = fail('DESTINATION_TAG_INVALID', { details: { field: 'extra_id' } });
  // A JSON number is read by its text; 1e21 or 1.5 are then refused by the checks below.
  const text = String(input).trim();
  if (text === '') return ok(null);
  if (currency === 'XRP') {
    if (!/^\d{1,10}$/.test(text) || BigInt(text) > MAX_XRP_DESTINATION_TAG) return invalid;
    return ok(BigInt(text).toString());
  }
  // Printable ASCII only: memos travel to providers and chains that take nothing else.
  if (text.length > MAX_EXTRA_ID_LENGTH || !/^[ -~]+$/.test(text)) return invalid;
  return ok(text);
}
