import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import {
  buildSignInMessage,
  canonicalWalletAddress,
  nonceOfMessage,
  siweMessageIsValid,
  verifyWalletSignature,
} from './wallet-messages.ts';

const issuedAt = new Date('2030-05-01T10:00:00.000Z');
const expiresAt = new Date('2030-05-01T10:05:00.000Z');
const base = {
  domain: 'exchange.example:8443',
  uri: 'https://exchange.example:8443',
  nonce: 'a1b2c3d4e5f6a7b8c9d0',
  issuedAt,
  expiresAt,
};

describe('Sign-In with Ethereum (EIP-4361)', () => {
  const wallet = privateKeyToAccount(generatePrivateKey());
  const fields = { ...base, address: wallet.address.toLowerCase() };

  it('builds the EIP-4361 text with the checksummed address', () => {
    const message = buildSignInMessage('ethereum', fields);
    expect(message).toBe(
      [
        'exchange.example:8443 wants you to sign in with your Ethereum account:',
        wallet.address,
        '',
        'Sign in to Meridian',
        '',
        'URI: https://exchange.example:8443',
        'Version: 1',
        'Chain ID: 1',
        'Nonce: a1b2c3d4e5f6a7b8c9d0',
        'Issued At: 2030-05-01T10:00:00.000Z',
        'Expiration Time: 2030-05-01T10:05:00.000Z',
      ].join('\n'),
    );
    expect(nonceOfMessage(message)).toBe(base.nonce);
  });

  it('verifies the owner signature (EIP-191) and refuses another key or another text', async () => {
    const message = buildSignInMessage('ethereum', fields);
    const signature = await wallet.signMessage({ message });
    const signed = { address: wallet.address, message, signature };
    expect(await verifyWalletSignature('ethereum', signed)).toBe(true);

    const other = privateKeyToAccount(generatePrivateKey());
    const foreign = await other.signMessage({ message });
    expect(await verifyWalletSignature('ethereum', { ...signed, signature: foreign })).toBe(false);
    expect(await verifyWalletSignature('ethereum', { ...signed, message: `${message} ` })).toBe(false);
    expect(await verifyWalletSignature('ethereum', { ...signed, signature: 'not hex' })).toBe(false);
    expect(await verifyWalletSignature('ethereum', { ...signed, signature: '0x1234' })).toBe(false);
  });

  it('checks domain, address, nonce and expiry of the parsed message', () => {
    const message = buildSignInMessage('ethereum', fields);
    const expected = { domain: base.domain, address: wallet.address, nonce: base.nonce };
    expect(siweMessageIsValid(message, expected, issuedAt)).toBe(true);
    expect(siweMessageIsValid(message, { ...expected, domain: 'evil.example' }, issuedAt)).toBe(false);
    expect(siweMessageIsValid(message, { ...expected, nonce: 'zzzzzzzzzzzzzzzz' }, issuedAt)).toBe(false);
    const otherAddress = privateKeyToAccount(generatePrivateKey()).address;
    expect(siweMessageIsValid(message, { ...expected, address: otherAddress }, issuedAt)).toBe(false);
    expect(siweMessageIsValid(message, expected, new Date(expiresAt.getTime() + 1000))).toBe(false);
  });

  it('stores an Ethereum address in its checksum spelling', () => {
    expect(canonicalWalletAddress('ethereum', wallet.address.toLowerCase())).toBe(wallet.address);
    expect(canonicalWalletAddress('ethereum', '0x123')).toBeNull();
  });
});

describe('Sign-In with Solana', () => {
  const keys = nacl.sign.keyPair();
  const address = bs58.encode(keys.publicKey);
  const sign = (message: string, secretKey = keys.secretKey) =>
    bs58.encode(nacl.sign.detached(new TextEncoder().encode(message), secretKey));

  it('builds the same text shape for a Solana account', () => {
    const message = buildSignInMessage('solana', { ...base, address });
    expect(message.split('\n').slice(0, 2)).toEqual([
      'exchange.example:8443 wants you to sign in with your Solana account:',
      address,
    ]);
    expect(message).toContain('\nChain ID: mainnet\nNonce: a1b2c3d4e5f6a7b8c9d0\n');
    expect(message.endsWith('Expiration Time: 2030-05-01T10:05:00.000Z')).toBe(true);
  });

  it('verifies an ed25519 signature and refuses another key, another text or garbage', async () => {
    const message = buildSignInMessage('solana', { ...base, address });
    const signed = { address, message, signature: sign(message) };
    expect(await verifyWalletSignature('solana', signed)).toBe(true);
    const foreign = sign(message, nacl.sign.keyPair().secretKey);
    expect(await verifyWalletSignature('solana', { ...signed, signature: foreign })).toBe(false);
    expect(await verifyWalletSignature('solana', { ...signed, message: message.replace('mainnet', 'devnet') })).toBe(
      false,
    );
    expect(await verifyWalletSignature('solana', { ...signed, signature: '0OIl' })).toBe(false);
    expect(await verifyWalletSignature('solana', { ...signed, signature: bs58.encode(new Uint8Array(10)) })).toBe(
      false,
    );
  });

  it('accepts only base58 strings that are 32-byte public keys', () => {
    expect(canonicalWalletAddress('solana', address)).toBe(address);
    expect(canonicalWalletAddress('solana', 'z'.repeat(44))).toBeNull();
  });
});
