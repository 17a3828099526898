import crypto from 'node:crypto';
import { type WalletChallengeResponse, type WalletType, walletTypeOfAddress } from '@platform/contracts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import {
  buildSignInMessage,
  canonicalWalletAddress,
  nonceOfMessage,
  siweMessageIsValid,
  verifyWalletSignature,
} from './wallet-messages.ts';

/** Five minutes: time to read and approve the wallet prompt, too short for a stolen message to be worth much. */
const WALLET_CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** 128 random bits as 32 hex characters: alphanumeric as EIP-4361 wants, never guessed or repeated. */
const NONCE_BYTES = 16;
/** Spent and expired challenges are kept a day (for investigating abuse), then swept when new ones are made. */
const CHALLENGE_RETENTION_MS = 24 * 60 * 60 * 1000;

export type ChallengeDeps = { db: Database; config: Pick<Config, 'publicUrl'> };
export type WalletIdentity = { walletType: WalletType; address: string };

/** The wallet type (given, else read from the address format) and the address in its stored spelling. */
export function walletIdentity(address: string, walletType: WalletType | undefined): Result<WalletIdentity> {
  const type = walletType ?? walletTypeOfAddress(address);
  if (type === null || walletTypeOfAddress(address) !== type) return fail('WALLET_ADDRESS_INVALID');
  const canonical = canonicalWalletAddress(type, address);
  return canonical === null ? fail('WALLET_ADDRESS_INVALID') : ok({ walletType: type, address: canonical });
}

export async function createWalletChallenge(
  deps: ChallengeDeps,
  request: { wallet_address: string; wallet_type?: WalletType | undefined },
  now: Date,
): Promise<Result<WalletChallengeResponse>> {
  const identity = walletIdentity(request.wallet_address, request.wallet_type);
  if (!identity.ok) return identity;
  const { walletType, address } = identity.value;
  const nonce = crypto.randomBytes(NONCE_BYTES).toString('hex');
  const expiresAt = new Date(now.getTime() + WALLET_CHALLENGE_TTL_MS);
  const url = new URL(deps.config.publicUrl);
  const message = buildSignInMessage(walletType, {
    domain: url.host,
    uri: deps.config.publicUrl,
    address,
    nonce,
    issuedAt: now,
    expiresAt,
  });
  await deps.db.query('DELETE FROM wallet_challenges WHERE expires_at < $1', [
    new Date(now.getTime() - CHALLENGE_RETENTION_MS),
  ]);
  await deps.db.query(
    `INSERT INTO wallet_challenges (nonce, wallet_address, wallet_type, message, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [nonce, address, walletType, message, now, expiresAt],
  );
  return ok({ challenge: message, nonce, expires_at: expiresAt.toISOString() });
}

type StoredChallenge = {
  nonce: string;
  wallet_address: string;
  wallet_type: WalletType;
  message: string;
  expires_at: Date;
};

export type SignedChallenge = {
  wallet_address: string;
  wallet_type?: WalletType | undefined;
  message: string;
  signature: string;
};

/**
 * Proves that the caller holds the wallet's key. The nonce is consumed first, atomically and
 * whatever follows, so each challenge is tried at most once; then the message must be the issued
 * one byte for byte, still valid, and signed by the address.
 */
export async function verifySignedChallenge(
  deps: ChallengeDeps,
  signed: SignedChallenge,
  now: Date,
): Promise<Result<WalletIdentity>> {
  const identity = walletIdentity(signed.wallet_address, signed.wallet_type);
  if (!identity.ok) return identity;
  const nonce = nonceOfMessage(signed.message);
  if (nonce === null) return fail('WALLET_CHALLENGE_INVALID');
  const consumed = await deps.db.query<StoredChallenge>(
    'UPDATE wallet_challenges SET consumed_at = $2 WHERE nonce = $1 AND consumed_at IS NULL RETURNING *',
    [nonce, now],
  );
  const challenge = consumed.rows[0];
  if (!challenge || !matchesChallenge(challenge, signed.message, identity.value)) {
    return fail('WALLET_CHALLENGE_INVALID');
  }
  if (now.getTime() >= new Date(challenge.expires_at).getTime()) return fail('WALLET_CHALLENGE_EXPIRED');
  const { walletType, address } = identity.value;
  const domain = new URL(deps.config.publicUrl).host;
  if (walletType === 'ethereum' && !siweMessageIsValid(signed.message, { domain, address, nonce }, now)) {
    return fail('WALLET_CHALLENGE_INVALID');
  }
  const genuine = await verifyWalletSignature(walletType, {
    address,
    message: signed.message,
    signature: signed.signature,
  });
  return genuine ? ok(identity.value) : fail('WALLET_SIGNATURE_INVALID');
}

function matchesChallenge(challenge: StoredChallenge, message: string, identity: WalletIdentity): boolean {
  return (
    challenge.message === message &&
    challenge.wallet_type === identity.walletType &&
    challenge.wallet_address === identity.address
  );
}
