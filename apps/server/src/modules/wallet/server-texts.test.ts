import { type Notification, serverMessageTemplates, TRANSFER_MEMO_MAX_LENGTH } from '@platform/contracts';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/harness.ts';
import { fund } from '../trading/test-support.ts';
import { parseMemo, parseNetwork } from './rules.ts';
import { type Member, sendTransfer, settled, signUpMember } from './test-support.ts';

/** What the wallet says in words reaches clients as a key and raw values (docs/i18n.md "Server texts"). */
describeEachDatabase(
  'wallet: server texts by key',
  (server) => {
    let alice: Member;
    let bob: Member;

    beforeAll(async () => {
      alice = await signUpMember(server());
      bob = await signUpMember(server());
      await fund(server(), alice.id, 'USDT', '500');
    });

    it('answers a limit with the same English message and the text key and values beside it', async () => {
      const tiny = await sendTransfer(server(), alice, { to_username: bob.username, currency: 'USDT', amount: '0.5' });
      expect(tiny.status).toBe(400);
      const error = (
        tiny.body as unknown as { error: { code: string; message: string; details: Record<string, unknown> } }
      ).error;
      expect(error.message).toBe('Minimum transfer amount is 1 USDT');
      expect(error.details).toEqual({
        field: 'amount',
        minimum: '1',
        text: 'transferMinimum',
        params: { minimum: '1', currency: 'USDT' },
      });
      expect(Object.keys(serverMessageTemplates)).toContain(error.details.text);
    });

    it('gives decimals, the memo limit and the network their keys too', async () => {
      const decimals = await sendTransfer(server(), alice, {
        to_username: bob.username,
        currency: 'USDT',
        amount: '1.123',
      });
      expect((decimals.body as any).error).toMatchObject({
        message: 'Amount has more than 2 decimals for USDT',
        details: { text: 'amountDecimals', params: { decimals: 2, currency: 'USDT' } },
      });
      // A huge memo with a NUL byte stops at the request schema; the service's own check carries the key.
      const memo = await sendTransfer(server(), alice, {
        to_username: bob.username,
        currency: 'USDT',
        amount: '2',
        memo: `\u0000${'m'.repeat(10_000)}`,
      });
      expect(memo.status).toBe(400);
      expect(parseMemo('m'.repeat(TRANSFER_MEMO_MAX_LENGTH + 1))).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: `The memo is longer than ${TRANSFER_MEMO_MAX_LENGTH} characters`,
        details: { field: 'memo', text: 'memoTooLong', params: { max: TRANSFER_MEMO_MAX_LENGTH } },
      });
      expect(parseNetwork('nope', 'USDT')).toMatchObject({
        message: 'USDT cannot be withdrawn on the NOPE network',
        details: { text: 'networkNotSupported', params: { currency: 'USDT', network: 'NOPE' } },
      });
    });

    it('stores a settled transfer with its text key and the raw amount', async () => {
      const sent = await sendTransfer(server(), alice, {
        to_username: bob.username,
        currency: 'USDT',
        amount: '12.50',
      });
      expect(sent.status).toBe(201);
      await settled(server(), bob, sent.body.id);
      const notes = await server().request('GET', '/v1/notifications', { token: bob.token });
      const received = (notes.body as { notifications: Notification[] }).notifications[0];
      expect(received).toMatchObject({
        title: 'Transfer received',
        message: `Received 12.5 USDT from @${alice.username}`,
        textKey: 'transferReceived',
        params: { amount: '12.5', currency: 'USDT', username: alice.username },
      });
    });
  },
  { RATE_LIMIT_ENABLED: 'false' },
);
