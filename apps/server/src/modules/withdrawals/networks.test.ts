import type { WithdrawalFeeEstimate, WithdrawalNetworksResponse } from '@platform/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/harness.ts';
import { balance, fund } from '../trading/test-support.ts';
import type { Member } from '../wallet/test-support.ts';
import { parseAddress, parseNetwork } from './rules.ts';
import { ADDRESSES, type FakePayoutProvider, installFake, sent, verifiedMember, withdraw } from './test-support.ts';

const TRON = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const SOLANA = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';
const TEZOS = 'tz1VSUr8wwNhLAzempoch5d6hLRiTh8Cjcjb';

describe('withdrawal networks: the address format follows the chosen network', () => {
  const usdt = (network: string) => {
    const found = parseNetwork(network, 'USDT');
    if (!found.ok || !found.value) throw new Error(`no USDT network ${network}`);
    return found.value;
  };

  it.each([
    ['TRX', TRON],
    ['ETH', ADDRESSES.ETH],
    ['BSC', ADDRESSES.ETH],
    ['SOL', SOLANA],
    ['XTZ', TEZOS],
  ])('USDT on %s takes %s', (network, address) => {
    expect(parseAddress(address, 'USDT', usdt(network))).toEqual({ ok: true, value: address });
  });

  it.each([
    ['TRX', ADDRESSES.ETH, 'Invalid USDT address format for Tron (TRC-20)'],
    ['TRX', 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU8', 'Invalid USDT address format for Tron (TRC-20)'],
    ['SOL', TRON, 'Invalid USDT address format for Solana (SPL)'],
    ['BSC', TRON, 'Invalid USDT address format for BNB Smart Chain (BEP-20)'],
    ['ETH', TRON, 'Invalid USDT address format'],
  ])('USDT on %s refuses %s', (network, address, message) => {
    const result = parseAddress(address, 'USDT', usdt(network));
    expect(result.ok ? null : result.message).toBe(message);
  });

  it('names the default network when none is given, and refuses a network the currency is not on', () => {
    expect(parseNetwork(undefined, 'USDT')).toMatchObject({ ok: true, value: { network: 'ETH', is_default: true } });
    expect(parseNetwork('trx', 'USDT')).toMatchObject({ ok: true, value: { network: 'TRX', code: 'usdttrc20' } });
    expect(parseNetwork(undefined, 'BTC')).toEqual({ ok: true, value: undefined });
    const unknown = parseNetwork('DOGE', 'USDT');
    expect(unknown.ok ? null : [unknown.code, unknown.message]).toEqual([
      'NETWORK_NOT_SUPPORTED',
      'USDT cannot be withdrawn on the DOGE network',
    ]);
    const single = parseNetwork('TRX', 'BTC');
    expect(single.ok ? null : single.message).toBe('BTC cannot be withdrawn on the TRX network');
  });
});

describeEachDatabase(
  'withdrawing USDT on the network of the user’s choice',
  (server) => {
    let member: Member;
    let fake: FakePayoutProvider;

    beforeAll(async () => {
      fake = installFake(server());
      member = await verifiedMember(server());
      await fund(server(), member.id, 'USDT', '500');
    });

    it('lists the networks with their fee, minimum and address format', async () => {
      const answer = await server().request<WithdrawalNetworksResponse>(
        'GET',
        '/api/v1/wallet/withdrawal-networks/usdt',
        { token: member.token },
      );
      expect(answer.body.currency).toBe('USDT');
      expect(
        answer.body.networks.map((entry) => [entry.network, entry.fee, entry.minimum, entry.address_format]),
      ).toEqual([
        ['TRX', '1', '10', 'tron'],
        ['ETH', '1', '50', 'evm'],
        ['BSC', '0.3', '10', 'evm'],
        ['SOL', '1', '10', 'solana'],
        ['XTZ', '0.5', '10', 'tezos'],
        ['EOS', '0.5', '10', 'eos'],
      ]);
      const btc = await server().request<WithdrawalNetworksResponse>('GET', '/api/v1/wallet/withdrawal-networks/btc', {
        token: member.token,
      });
      expect(btc.body.networks).toEqual([]);
    });

    it('quotes the fee per network', async () => {
      const quote = (network?: string) =>
        server().request<WithdrawalFeeEstimate>(
          'GET',
          `/api/v1/wallet/withdrawal-fee-estimate?currency=usdt&amount=20${network ? `&network=${network}` : ''}`,
          { token: member.token },
        );
      expect((await quote('BSC')).body).toMatchObject({ fee: '0.3', total_amount: '20.3' });
      expect((await quote('trx')).body).toMatchObject({ fee: '1', total_amount: '21' });
      expect((await quote()).body).toMatchObject({ fee: '1', total_amount: '21' });
      expect((await quote('XYZ')).status).toBe(400);
    });

    it('sends 20 USDT on Tron: the Tron minimum and fee, the network stored and told to the provider', async () => {
      const answer = await withdraw(server(), member, {
        currency: 'usdt',
        amount: '20',
        address: TRON,
        network: 'trx',
      });
      expect(answer.status).toBe(201);
      expect(answer.body).toMatchObject({ network: 'TRX', amount: '20', fee: '1', total_amount: '21' });
      await sent(server(), member, answer.body.id);
      expect(fake.payouts.get(answer.body.id)?.request).toMatchObject({ currency: 'USDT', networkCode: 'usdttrc20' });
      expect(await balance(server(), member.id, 'USDT')).toMatchObject({ available: '479', locked: '21' });
    });

    it('keeps the Ethereum rules without a network: 20 USDT is below its minimum, a Tron address is refused', async () => {
      const small = await withdraw(server(), member, { currency: 'usdt', amount: '20', address: ADDRESSES.ETH });
      expect(small.body.error).toMatchObject({ message: 'Minimum withdrawal amount is 50 USDT' });
      const tron = await withdraw(server(), member, { currency: 'usdt', amount: '60', address: TRON });
      expect(tron.body.error).toMatchObject({ message: 'Invalid USDT address format' });
      const erc = await withdraw(server(), member, { currency: 'usdt', amount: '60', address: ADDRESSES.ETH });
      expect(erc.body).toMatchObject({ network: 'ETH', fee: '1' });
    });

    it('refuses an address of another network, a network below its minimum, and a network the coin is not on', async () => {
      const wrong = await withdraw(server(), member, {
        currency: 'usdt',
        amount: '20',
        address: ADDRESSES.ETH,
        network: 'SOL',
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error).toMatchObject({
        code: 'ADDRESS_FORMAT_INVALID',
        message: 'Invalid USDT address format for Solana (SPL)',
      });
      const below = await withdraw(server(), member, {
        currency: 'usdt',
        amount: '5',
        address: SOLANA,
        network: 'SOL',
      });
      expect(below.body.error).toMatchObject({ message: 'Minimum withdrawal amount is 10 USDT' });
      const unknown = await withdraw(server(), member, {
        currency: 'btc',
        amount: '0.1',
        address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
        network: 'TRX',
      });
      expect(unknown.body.error).toMatchObject({ code: 'NETWORK_NOT_SUPPORTED' });
    });

    it('a retry under the same key on another network is a different request (409)', async () => {
      const first = await withdraw(
        server(),
        member,
        { currency: 'usdt', amount: '10', address: TRON, network: 'TRX' },
        'net-key-1',
      );
      expect(first.status).toBe(201);
      const again = await withdraw(
        server(),
        member,
        { currency: 'usdt', amount: '10', address: TRON, network: 'TRX' },
        'net-key-1',
      );
      expect(again.status).toBe(200);
      const other = await withdraw(
        server(),
        member,
        { currency: 'usdt', amount: '10', address: ADDRESSES.ETH, network: 'BSC' },
        'net-key-1',
      );
      expect(other.status).toBe(409);
    });
  },
  { RATE_LIMIT_ENABLED: 'false', PRICE_FEED_ENABLED: 'false' },
);
