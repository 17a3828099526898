import type { WalletType } from '@platform/contracts';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { getAddress, verifyMessage } from 'viem';
import { createSiweMessage, parseSiweMessage, validateSiweMessage } from 'viem/siwe';

/**
 * The sign-in messages a wallet signs: EIP-4361 (Sign-In with Ethereum) for Ethereum-style wallets
 * and its Solana twin (Sign-In with Solana) for Solana-style ones. Pure: time comes in.
 */

const SIGN_IN_STATEMENT = 'Sign in to Meridian';
/** Ethereum mainnet: the message only binds the session to a chain, no transaction is involved. */
const SIWE_CHAIN_ID = 1;
const SIWS_CHAIN_ID = 'mainnet';
const ED25519_PUBLIC_KEY_BYTES = 32;

export type SignInMessageFields = {
  /** Host (and port) of the public URL: the wallet shows it so a user spots a phishing site. */
  domain: string;
  uri: string;
  address: string;
  nonce: string;
  issuedAt: Date;
  expiresAt: Date;
};

/** The address in its one stored spelling (EIP-55 checksum for Ethereum), or null when it is not an address. */
export function canonicalWalletAddress(walletType: WalletType, address: string): string | null {
  try {
    if (walletType === 'ethereum') return getAddress(address);
    return bs58.decode(address).length === ED25519_PUBLIC_KEY_BYTES ? address : null;
  } catch {
    return null;
  }
}

export function buildSignInMessage(walletType: WalletType, fields: SignInMessageFields): string {
  if (walletType === 'ethereum') {
    return createSiweMessage({
      domain: fields.domain,
      uri: fields.uri,
      address: getAddress(fields.address),
      statement: SIGN_IN_STATEMENT,
      chainId: SIWE_CHAIN_ID,
      version: '1',
      nonce: fields.nonce,
      issuedAt: fields.issuedAt,
      expirationTime: fields.expiresAt,
    });
  }
  return [
    `${fields.domain} wants you to sign in with your Solana account:`,
    fields.address,
    '',
    SIGN_IN_STATEMENT,
    '',
    `URI: ${fields.uri}`,
    'Version: 1',
    `Chain ID: ${SIWS_CHAIN_ID}`,
    `Nonce: ${fields.nonce}`,
    `Issued At: ${fields.issuedAt.toISOString()}`,
    `Expiration Time: ${fields.expiresAt.toISOString()}`,
  ].join('\n');
}

/** The nonce line of a sign-in message: it names the challenge the message answers. */
export function nonceOfMessage(message: string): string | null {
  return /^Nonce: ([A-Za-z0-9]+)$/m.exec(message)?.[1] ?? null;
}

export type SignedMessage = { address: string; message: string; signature: string };

/** True when `signature` is the address owner's signature of exactly `message`. */
export async function verifyWalletSignature(walletType: WalletType, signed: SignedMessage): Promise<boolean> {
  try {
    if (walletType === 'ethereum') return await verifyEthereumSignature(signed);
    const messageBytes = new TextEncoder().encode(signed.message);
    return nacl.sign.detached.verify(messageBytes, bs58.decode(signed.signature), bs58.decode(signed.address));
  } catch {
    // Malformed hex or base58, a signature of the wrong length: not a valid signature.
    return false;
  }
}

/** EIP-191 personal_sign: the recovered signer must be the address. */
function verifyEthereumSignature({ address, message, signature }: SignedMessage): Promise<boolean> {
  if (!/^0x[0-9a-fA-F]+$/.test(signature)) return Promise.resolve(false);
  return verifyMessage({ address: getAddress(address), message, signature: signature as `0x${string}` });
}

/**
 * EIP-4361 checks on the parsed message: domain, address and nonce are the expected ones and the
 * message has not expired. The message is also compared byte for byte with the issued one; this
 * guards against a challenge that was built wrongly in the first place.
 */
export function siweMessageIsValid(
  message: string,
  expected: { domain: string; address: string; nonce: string },
  now: Date,
): boolean {
  const parsed = parseSiweMessage(message);
  if (parsed.expirationTime === undefined) return false;
  return validateSiweMessage({
    message: parsed,
    domain: expected.domain,
    address: getAddress(expected.address),
    nonce: expected.nonce,
    time: now,
  });
}
