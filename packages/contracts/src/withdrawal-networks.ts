import { z } from 'zod';
import { COINS } from './coins.ts';

/**
 * Withdrawal networks (docs/withdrawals.md, "Networks"): a currency the catalogue lists on several
 * networks (USDT on Tron, Ethereum, BSC, Solana, Tezos, EOS; USDC on Ethereum, KCC, Polygon, BSC,
 * Solana) is withdrawn on the network the user picks, each with its own fee, minimum and address
 * format. Ethereum is the default network of USDT and USDC (§5 checks their addresses in the
 * Ethereum format), and keeps §9's fee and minimum; the others carry their own, in the range
 * exchanges charge on those chains (a Tron or Solana transfer costs far less than an ERC-20 one).
 */

/** The address formats a network's addresses are checked in (server: withdrawals/rules.ts). */
export const ADDRESS_FORMATS = ['evm', 'tron', 'solana', 'tezos', 'eos'] as const;
export type AddressFormat = (typeof ADDRESS_FORMATS)[number];

type NetworkSeed = { name: string; format: AddressFormat; example: string };

/** Each network's display name, address format and an example address (placeholder text). */
const NETWORKS: Readonly<Record<string, NetworkSeed>> = {
  ETH: { name: 'Ethereum (ERC-20)', format: 'evm', example: '0x52908400098527886E0F7030069857D2E4169EE7' },
  TRX: { name: 'Tron (TRC-20)', format: 'tron', example: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7' },
  BSC: { name: 'BNB Smart Chain (BEP-20)', format: 'evm', example: '0x52908400098527886E0F7030069857D2E4169EE7' },
  SOL: { name: 'Solana (SPL)', format: 'solana', example: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV' },
  MATIC: { name: 'Polygon', format: 'evm', example: '0x52908400098527886E0F7030069857D2E4169EE7' },
  KCC: { name: 'KuCoin Community Chain (KCC)', format: 'evm', example: '0x52908400098527886E0F7030069857D2E4169EE7' },
  XTZ: { name: 'Tezos', format: 'tezos', example: 'tz1VSUr8wwNhLAzempoch5d6hLRiTh8Cjcjb' },
  EOS: { name: 'EOS', format: 'eos', example: 'eosaccount12' },
};

/** Fee (base, before the 0.1 % rule) and minimum per currency and network; the default network uses §9's. */
const NETWORK_COSTS: Readonly<Record<string, Readonly<Record<string, { fee: string; minimum: string }>>>> = {
  USDT: {
    ETH: { fee: '1', minimum: '50' },
    TRX: { fee: '1', minimum: '10' },
    BSC: { fee: '0.3', minimum: '10' },
    SOL: { fee: '1', minimum: '10' },
    XTZ: { fee: '0.5', minimum: '10' },
    EOS: { fee: '0.5', minimum: '10' },
  },
  USDC: {
    ETH: { fee: '1', minimum: '50' },
    KCC: { fee: '0.5', minimum: '10' },
    MATIC: { fee: '0.5', minimum: '10' },
    BSC: { fee: '0.3', minimum: '10' },
    SOL: { fee: '1', minimum: '10' },
  },
};

/** The network a withdrawal of the currency takes when none is named. */
export const DEFAULT_WITHDRAWAL_NETWORK: Readonly<Record<string, string>> = { USDT: 'ETH', USDC: 'ETH' };

export const withdrawalNetworkSchema = z.object({
  /** Network id as in the catalogue and deposit addresses ('TRX'). */
  network: z.string(),
  /** The catalogue's payment code of the currency on this network ('usdttrc20'). */
  code: z.string(),
  name: z.string(),
  address_format: z.enum(ADDRESS_FORMATS),
  address_example: z.string(),
  /** Base fee: the fee is the larger of it and 0.1 % of the amount. */
  fee: z.string(),
  minimum: z.string(),
  is_default: z.boolean(),
});
export type WithdrawalNetwork = z.infer<typeof withdrawalNetworkSchema>;

export const withdrawalNetworksResponseSchema = z.object({
  currency: z.string(),
  /** Empty for a currency on one network (its address rules are the currency's). */
  networks: z.array(withdrawalNetworkSchema),
});
export type WithdrawalNetworksResponse = z.infer<typeof withdrawalNetworksResponseSchema>;

/** The networks a currency is withdrawn on, in catalogue order; empty when it has one. */
export function withdrawalNetworksOf(currency: string): WithdrawalNetwork[] {
  const symbol = currency.toUpperCase();
  const costs = NETWORK_COSTS[symbol];
  if (!costs) return [];
  return COINS.filter((coin) => coin.symbol === symbol && coin.isEnabled && coin.network && costs[coin.network]).map(
    (coin) => {
      const network = coin.network as string;
      const seed = NETWORKS[network] as NetworkSeed;
      const cost = costs[network] as { fee: string; minimum: string };
      return {
        network,
        code: coin.code,
        name: seed.name,
        address_format: seed.format,
        address_example: seed.example,
        fee: cost.fee,
        minimum: cost.minimum,
        is_default: DEFAULT_WITHDRAWAL_NETWORK[symbol] === network,
      };
    },
  );
}

/** A network of the currency by id, any case; undefined when the currency has no such network. */
export function withdrawalNetwork(currency: string, network: string): WithdrawalNetwork | undefined {
  const wanted = network.trim().toUpperCase();
  return withdrawalNetworksOf(currency).find((entry) => entry.network === wanted);
}
