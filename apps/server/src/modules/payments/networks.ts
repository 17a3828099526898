import { COINS, type Coin, DEFAULT_DEPOSIT_CONFIRMATIONS, DEPOSIT_CONFIRMATIONS } from '@platform/contracts';
import {
  algorandAddress,
  aptosAddress,
  bitcoinCashAddress,
  cardanoEnterpriseAddress,
  cosmosAddress,
  eosAccountName,
  evmAddress,
  filecoinAddress,
  hederaAccountId,
  icpAccountId,
  moneroAddress,
  nearAddress,
  p2pkhAddress,
  p2wpkhAddress,
  polkadotAddress,
  solanaAddress,
  stellarAddress,
  suiAddress,
  tezosAddress,
  tonAddress,
  tronAddress,
  xrpAddress,
} from './address-codecs.ts';
import type { KeyTree } from './hd-keys.ts';

/**
 * Every network we take deposits on, with the address family it really uses and where in the key
 * tree its addresses come from. `{i}` in a path is the account's deposit index. Networks with a
 * `memo` share one address (derived at index 0) and tell accounts apart by a per-account memo or
 * destination tag, as exchanges do on those chains.
 */

export type AddressFamily =
  | 'bitcoin'
  | 'bitcoin-cash'
  | 'evm'
  | 'tron'
  | 'solana'
  | 'xrp'
  | 'stellar'
  | 'cosmos'
  | 'eos'
  | 'ton'
  | 'hedera'
  | 'algorand'
  | 'near'
  | 'sui'
  | 'aptos'
  | 'tezos'
  | 'polkadot'
  | 'cardano'
  | 'icp'
  | 'filecoin'
  | 'monero';

export interface NetworkSpec {
  network: string;
  family: AddressFamily;
  /** Derivation path; `{i}` is replaced by the index. */
  path: string;
  /** Set for shared-address networks: what the network calls the per-account memo. */
  memoLabel: 'Destination tag' | 'Memo' | 'Comment' | null;
  /** The address at a path (already resolved). */
  address(tree: KeyTree, path: string, index: number): string;
}

const secp = (encode: (publicKey: Uint8Array) => string) => (tree: KeyTree, path: string) =>
  encode(tree.secp256k1PublicKey(path));
const ed = (encode: (publicKey: Uint8Array) => string) => (tree: KeyTree, path: string) =>
  encode(tree.ed25519PublicKey(path));

const evm = (network: string, path = "m/44'/60'/0'/0/{i}"): NetworkSpec => ({
  network,
  family: 'evm',
  path,
  memoLabel: null,
  address: secp(evmAddress),
});

const SPECS: readonly NetworkSpec[] = [
  {
    network: 'BTC',
    family: 'bitcoin',
    path: "m/84'/0'/0'/0/{i}",
    memoLabel: null,
    address: secp((k) => p2wpkhAddress('bc', k)),
  },
  {
    network: 'LTC',
    family: 'bitcoin',
    path: "m/84'/2'/0'/0/{i}",
    memoLabel: null,
    address: secp((k) => p2wpkhAddress('ltc', k)),
  },
  {
    network: 'DOGE',
    family: 'bitcoin',
    path: "m/44'/3'/0'/0/{i}",
    memoLabel: null,
    address: secp((k) => p2pkhAddress([0x1e], k)),
  },
  {
    network: 'ZEC',
    family: 'bitcoin',
    path: "m/44'/133'/0'/0/{i}",
    memoLabel: null,
    address: secp((k) => p2pkhAddress([0x1c, 0xb8], k)),
  },
  {
    network: 'BCH',
    family: 'bitcoin-cash',
    path: "m/44'/145'/0'/0/{i}",
    memoLabel: null,
    address: secp(bitcoinCashAddress),
  },
  // One key for every EVM chain (as browser wallets do); Ethereum Classic and Theta keep their own coin types.
  evm('ETH'),
  evm('BSC'),
  evm('KCC'),
  evm('MATIC'),
  evm('ARB'),
  evm('OP'),
  evm('AVAX'),
  evm('ETC', "m/44'/61'/0'/0/{i}"),
  evm('THETA', "m/44'/500'/0'/0/{i}"),
  { network: 'TRX', family: 'tron', path: "m/44'/195'/0'/0/{i}", memoLabel: null, address: secp(tronAddress) },
  { network: 'ICP', family: 'icp', path: "m/44'/223'/0'/0/{i}", memoLabel: null, address: secp(icpAccountId) },
  { network: 'FIL', family: 'filecoin', path: "m/44'/461'/0'/0/{i}", memoLabel: null, address: secp(filecoinAddress) },
  { network: 'SOL', family: 'solana', path: "m/44'/501'/{i}'/0'", memoLabel: null, address: ed(solanaAddress) },
  { network: 'ALGO', family: 'algorand', path: "m/44'/283'/{i}'/0'/0'", memoLabel: null, address: ed(algorandAddress) },
  { network: 'NEAR', family: 'near', path: "m/44'/397'/0'/0'/{i}'", memoLabel: null, address: ed(nearAddress) },
  { network: 'SUI', family: 'sui', path: "m/44'/784'/{i}'/0'/0'", memoLabel: null, address: ed(suiAddress) },
  { network: 'APT', family: 'aptos', path: "m/44'/637'/{i}'/0'/0'", memoLabel: null, address: ed(aptosAddress) },
  { network: 'XTZ', family: 'tezos', path: "m/44'/1729'/{i}'/0'", memoLabel: null, address: ed(tezosAddress) },
  { network: 'DOT', family: 'polkadot', path: "m/44'/354'/{i}'/0'/0'", memoLabel: null, address: ed(polkadotAddress) },
  {
    network: 'ADA',
    family: 'cardano',
    path: "m/1852'/1815'/{i}'/0'/0'",
    memoLabel: null,
    address: ed(cardanoEnterpriseAddress),
  },
  {
    network: 'XMR',
    family: 'monero',
    path: "m/44'/128'/0'",
    memoLabel: null,
    // One wallet; each account gets subaddress (0, i).
    address: (tree, path, index) => moneroAddress(tree.ed25519PrivateKey(path), index),
  },
  // Shared address + per-account memo.
  { network: 'XRP', family: 'xrp', path: "m/44'/144'/0'/0/0", memoLabel: 'Destination tag', address: secp(xrpAddress) },
  { network: 'XLM', family: 'stellar', path: "m/44'/148'/0'", memoLabel: 'Memo', address: ed(stellarAddress) },
  {
    network: 'ATOM',
    family: 'cosmos',
    path: "m/44'/118'/0'/0/0",
    memoLabel: 'Memo',
    address: secp((k) => cosmosAddress('cosmos', k)),
  },
  {
    network: 'SEI',
    family: 'cosmos',
    path: "m/44'/118'/0'/0/0",
    memoLabel: 'Memo',
    address: secp((k) => cosmosAddress('sei', k)),
  },
  { network: 'EOS', family: 'eos', path: "m/44'/194'/0'/0/0", memoLabel: 'Memo', address: secp(eosAccountName) },
  { network: 'TON', family: 'ton', path: "m/44'/607'/0'", memoLabel: 'Comment', address: ed(tonAddress) },
  { network: 'HBAR', family: 'hedera', path: "m/44'/3030'/0'/0'/0'", memoLabel: 'Memo', address: ed(hederaAccountId) },
];

export const NETWORKS: ReadonlyMap<string, NetworkSpec> = new Map(SPECS.map((spec) => [spec.network, spec]));

/**
 * The network of a catalogue entry: its own `network` for tokens, else the chain the coin is
 * native to (BNB lives on BNB Smart Chain, AVAX deposits arrive on the C-chain).
 */
const NATIVE_NETWORK: Readonly<Record<string, string>> = { BNB: 'BSC' };

export function networkOfCoin(coin: Coin): string {
  return coin.network ?? NATIVE_NETWORK[coin.symbol] ?? coin.symbol;
}

/** A catalogue entry we take deposits for: the wallet currency credited and where it arrives. */
export interface DepositRoute {
  /** Catalogue code ('usdttrc20'). */
  code: string;
  /** Wallet currency credited ('USDT'). */
  currency: string;
  spec: NetworkSpec;
  requiredConfirmations: number;
}

export function requiredConfirmations(network: string): number {
  return DEPOSIT_CONFIRMATIONS[network] ?? DEFAULT_DEPOSIT_CONFIRMATIONS;
}

const ROUTES: readonly DepositRoute[] = COINS.filter((coin) => coin.isEnabled).map((coin) => {
  const network = networkOfCoin(coin);
  const spec = NETWORKS.get(network);
  if (!spec) throw new Error(`no address family for network ${network} of ${coin.code}`);
  return { code: coin.code, currency: coin.symbol, spec, requiredConfirmations: requiredConfirmations(network) };
});

/** By catalogue code. */
export const DEPOSIT_ROUTES: ReadonlyMap<string, DepositRoute> = new Map(ROUTES.map((route) => [route.code, route]));

/**
 * The route of a requested currency: a catalogue code ('usdttrc20') names it outright; a wallet
 * currency ('usdt') takes the given network, else the currency's first catalogue entry. Any case.
 */
export function findDepositRoute(currencyOrCode: string, network?: string): DepositRoute | undefined {
  const text = currencyOrCode.trim().toLowerCase();
  const wantedNetwork = network?.trim().toUpperCase() || undefined;
  const byCode = DEPOSIT_ROUTES.get(text);
  if (byCode && (wantedNetwork === undefined || byCode.spec.network === wantedNetwork)) return byCode;
  const symbol = text.toUpperCase();
  return ROUTES.find(
    (route) => route.currency === symbol && (wantedNetwork === undefined || route.spec.network === wantedNetwork),
  );
}

/** The path of an account's address on a network (shared-address networks ignore the index). */
export function pathFor(spec: NetworkSpec, index: number): string {
  return spec.path.replaceAll('{i}', String(index));
}
