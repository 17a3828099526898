import { pbkdf2 } from '@noble/hashes/pbkdf2.js';
import { sha224, sha256, sha512 } from '@noble/hashes/sha2.js';
import { COINS } from '@platform/contracts';
import { createBase58check, hex } from '@scure/base';
// @ts-expect-error: the package ships no types
import WAValidator from 'multicoin-address-validator';
import { describe, expect, it } from 'vitest';
import {
  cashAddress,
  concatBytes,
  evmAddress,
  p2pkhAddress,
  solanaAddress,
  stellarAddress,
  tronAddress,
} from './address-codecs.ts';
import { normalizeAddress } from './chain.ts';
import { deriveDepositAddress, MEMO_BASE } from './deposit-addresses.ts';
import { HD_SEED_LABEL, hdSeedOf, KeyTree } from './hd-keys.ts';
import { DEPOSIT_ROUTES, findDepositRoute, NETWORKS, pathFor } from './networks.ts';

/** BIP39 seed of a mnemonic (no passphrase): PBKDF2-HMAC-SHA512, 2048 rounds, salt 'mnemonic'. */
function mnemonicSeed(mnemonic: string): Uint8Array {
  const encode = (text: string) => new TextEncoder().encode(text);
  return pbkdf2(sha512, encode(mnemonic), encode('mnemonic'), { c: 2048, dkLen: 64 });
}

const ABANDON = new KeyTree(
  mnemonicSeed('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'),
);
const addressAt = (network: string, index = 0) => {
  const spec = NETWORKS.get(network);
  if (!spec) throw new Error(network);
  return spec.address(ABANDON, pathFor(spec, index), index);
};

describe('deposit address families against published vectors (abandon ... about mnemonic)', () => {
  // Each expected value is the address wallets show for the mnemonic at the path named (BIP84's own
  // test vector, the well-known Ethereum/Tron/Solana first accounts, Ledger Live's abandon-seed list).
  it.each([
    ['BTC', "BIP84 m/84'/0'/0'/0/0", 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu'],
    ['LTC', "m/84'/2'/0'/0/0", 'ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh'],
    ['DOGE', "m/44'/3'/0'/0/0 (Ledger)", 'DBus3bamQjgJULBJtYXpEzDWQRwF5iwxgC'],
    ['ZEC', "m/44'/133'/0'/0/0 (Ledger)", 't1XVXWCvpMgBvUaed4XDqWtgQgJSu1Ghz7F'],
    ['ETH', "m/44'/60'/0'/0/0", '0x9858EfFD232B4033E47d90003D41EC34EcaEda94'],
    ['TRX', "m/44'/195'/0'/0/0", 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH'],
    ['SOL', "m/44'/501'/0'/0' (Phantom)", 'HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk'],
    ['XRP', "m/44'/144'/0'/0/0 (Ledger)", 'rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3'],
    ['ATOM', "m/44'/118'/0'/0/0 (Ledger)", 'cosmos19rl4cm2hmr8afy4kldpxz3fka4jguq0auqdal4'],
    ['SEI', "m/44'/118'/0'/0/0 (Ledger)", 'sei19rl4cm2hmr8afy4kldpxz3fka4jguq0a3vute5'],
    ['NEAR', "m/44'/397'/0'/0'/0' (Ledger)", '4e7de0a21d8a20f970c86b6edf407906d7ba9e205979c3268270eef80a286e2d'],
    ['FIL', "m/44'/461'/0'/0/0 (Ledger)", 'f1qode47ievxlxzk6z2viuovedabmn3tq6t57uqhq'],
  ])('%s at %s', (network, _path, expected) => {
    expect(addressAt(network)).toBe(expected);
  });

  it("Solana at Ledger's m/44'/501'/0' too", () => {
    expect(solanaAddress(ABANDON.ed25519PublicKey("m/44'/501'/0'"))).toBe(
      'GjJyeC1r2RgkuoCWMyPYkCWSGSGLcz266EaAkLA27AhL',
    );
  });

  it('SLIP-10 ed25519 test vector 1 (seed 000102...0f, m/0H)', () => {
    const tree = new KeyTree(hex.decode('000102030405060708090a0b0c0d0e0f'));
    expect(hex.encode(tree.ed25519PrivateKey("m/0'"))).toBe(
      '68e0fe46dfb67e368c75379acec591dad19df3cde26e63b93a8e704f1dade7a3',
    );
    expect(hex.encode(tree.ed25519PublicKey("m/0'"))).toBe(
      '8c8a13df77a28f3445213a0f432fde644acaa215fc72dcdf300d5efaa85d350c',
    );
    expect(() => tree.ed25519PrivateKey('m/0')).toThrow(/hardened/);
  });

  it('Stellar SEP-0005 test vector 1', () => {
    const tree = new KeyTree(mnemonicSeed('illness spike retreat truth genius clock brain pass fit cave bargain toe'));
    expect(stellarAddress(tree.ed25519PublicKey("m/44'/148'/0'"))).toBe(
      'GDRXE2BQUC3AZNPVFSCEZ76NJ3WWL25FYFK6RGZGIEKWE4SOOHSUJUJ6',
    );
  });

  it('EIP-55: the address of private key 1, and the EIP-55 example through our normaliser', () => {
    // Private key 1's public key is the generator point G; its address is a well-known value.
    const generator = hex.decode('0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798');
    expect(evmAddress(generator)).toBe('0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf');
    const eth = NETWORKS.get('ETH');
    if (!eth) throw new Error('ETH');
    expect(normalizeAddress(eth, '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBe(
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    );
    // Tron's T-address holds the same 20 bytes as the EVM address of the key.
    const tron = createBase58check(sha256).decode(tronAddress(generator));
    expect(tron[0]).toBe(0x41);
    expect(hex.encode(tron.slice(1))).toBe('7e5f4552091a69125d5dfcb7b8c2659029395bdf');
  });

  it('BCH CashAddr: the spec example and the legacy address of the same key', () => {
    const base58check = createBase58check(sha256);
    const hash = base58check.decode('1BpEi6DfDAUFd7GtittLSdBeYJvcoaVggu').slice(1);
    expect(cashAddress(hash)).toBe('bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a');
    // Ledger's legacy address of the abandon seed at m/44'/145'/0'/0/0 is the same key in the old format.
    const key = ABANDON.secp256k1PublicKey("m/44'/145'/0'/0/0");
    expect(p2pkhAddress([0], key)).toBe('1mW6fDEMjKrDHvLvoEsaeLxSCzZBf3Bfg');
    expect(addressAt('BCH')).toBe(cashAddress(base58check.decode('1mW6fDEMjKrDHvLvoEsaeLxSCzZBf3Bfg').slice(1)));
  });

  it('ICP account id of the anonymous principal (known value)', () => {
    const principal = Uint8Array.of(4);
    const hash = sha224(
      concatBytes(Uint8Array.of(0x0a), new TextEncoder().encode('account-id'), principal, new Uint8Array(32)),
    );
    expect(hex.encode(hash)).toBe('6a562aa9eaa2481a9049cdf0433b9738c992d698c31d8abf89cadc79');
  });
});

describe('every network of the catalogue', () => {
  const validatorSymbols: Record<string, string> = {
    BTC: 'btc',
    LTC: 'ltc',
    DOGE: 'doge',
    ZEC: 'zec',
    BCH: 'bch',
    ETH: 'eth',
    ETC: 'etc',
    AVAX: 'avax',
    TRX: 'trx',
    XRP: 'xrp',
    XLM: 'xlm',
    SOL: 'sol',
    ALGO: 'algo',
    XTZ: 'xtz',
    DOT: 'dot',
    ADA: 'ada',
    XMR: 'xmr',
    EOS: 'eos',
    HBAR: 'hbar',
    APT: 'apt',
  };
  const patterns: Record<string, RegExp> = {
    BSC: /^0x[0-9a-fA-F]{40}$/,
    KCC: /^0x[0-9a-fA-F]{40}$/,
    MATIC: /^0x[0-9a-fA-F]{40}$/,
    ARB: /^0x[0-9a-fA-F]{40}$/,
    OP: /^0x[0-9a-fA-F]{40}$/,
    THETA: /^0x[0-9a-fA-F]{40}$/,
    ICP: /^[0-9a-f]{64}$/,
    FIL: /^f1[a-z2-7]{39}$/,
    NEAR: /^[0-9a-f]{64}$/,
    SUI: /^0x[0-9a-f]{64}$/,
    ATOM: /^cosmos1[02-9ac-hj-np-z]{38}$/,
    SEI: /^sei1[02-9ac-hj-np-z]{38}$/,
    TON: /^EQ[A-Za-z0-9_-]{46}$/,
  };

  it('maps every enabled coin to a network with an address family', () => {
    expect(DEPOSIT_ROUTES.size).toBe(COINS.filter((coin) => coin.isEnabled).length);
    expect(findDepositRoute('usdttrc20')?.spec.family).toBe('tron');
    expect(findDepositRoute('USDT')?.spec.network).toBe('TRX');
    expect(findDepositRoute('usdt', 'eth')?.code).toBe('usdterc20');
    expect(findDepositRoute('usdc', 'sol')?.code).toBe('usdcsol');
    expect(findDepositRoute('bnb')?.spec.network).toBe('BSC');
    expect(findDepositRoute('usd')).toBeUndefined();
    expect(findDepositRoute('btc', 'eth')).toBeUndefined();
  });

  it.each([...NETWORKS.keys()])('%s: a valid address in its format, different per index unless shared', (network) => {
    const spec = NETWORKS.get(network);
    if (!spec) throw new Error(network);
    const first = deriveDepositAddress(ABANDON, spec, 1);
    const again = deriveDepositAddress(ABANDON, spec, 1);
    const second = deriveDepositAddress(ABANDON, spec, 2);
    expect(again).toEqual(first);
    const symbol = validatorSymbols[network];
    if (symbol) expect(WAValidator.validate(first.address, symbol)).toBe(true);
    else expect(first.address).toMatch(patterns[network] ?? /^$/);
    if (spec.memoLabel) {
      expect(second.address).toBe(first.address);
      expect(first.memo).toBe(String(MEMO_BASE + 1));
      expect(second.memo).toBe(String(MEMO_BASE + 2));
    } else {
      expect(second.address).not.toBe(first.address);
      expect(first.memo).toBeNull();
    }
  });

  it('Monero: the primary address and subaddresses (8...)', () => {
    expect(addressAt('XMR', 0)).toMatch(/^4/);
    expect(addressAt('XMR', 3)).toMatch(/^8/);
    expect(WAValidator.validate(addressAt('XMR', 3), 'xmr')).toBe(true);
  });
});

describe('the HD seed', () => {
  it('is WALLET_HD_SEED when set, else HKDF of the data key under a fixed label', () => {
    const configured = 'ab'.repeat(32);
    expect(hex.encode(hdSeedOf(configured, '00'.repeat(32)))).toBe(configured);
    const derived = hdSeedOf(undefined, '11'.repeat(32));
    expect(derived).toHaveLength(64);
    expect(hdSeedOf(undefined, '11'.repeat(32))).toEqual(derived);
    expect(hdSeedOf(undefined, '22'.repeat(32))).not.toEqual(derived);
    expect(HD_SEED_LABEL).toMatch(/v1$/);
  });
});
