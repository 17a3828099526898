import { TRANSFER_POPUP_AUTO_CLOSE_MS, TRANSFER_STATUS_POLL_INTERVAL_MS } from '@platform/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client.ts';
import type { TransferStatusSnapshot } from '../../api/wallet.ts';
import { i18n } from '../../i18n/i18n.ts';
import { translateMessage } from '../../lib/translate.ts';
import {
  TRANSFER_STATUS_MAX_FAILED_POLLS,
  type TransferWatchState,
  transferPopupView,
  watchTransferStatus,
} from './transfer-status.ts';

function transfer(status: string, overrides: Partial<TransferStatusSnapshot> = {}): TransferStatusSnapshot {
  return {
    id: 't-1',
    status,
    direction: 'sent',
    from_username: 'ada',
    to_username: 'bob',
    currency: 'USDT',
    amount: '5',
    memo: null,
    reason: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const english = (key: string | null) => (key === null ? null : translateMessage(i18n.t, key));

describe('transfer popup: status to progress and text (spec §4)', () => {
  it.each([
    ['CREATED', 'pending', 33, 'Transfer created'],
    ['WAITING', 'pending', 67, 'Transfer in progress'],
    ['FINISHED', 'success', 100, 'Transfer completed'],
    ['REJECTED', 'failure', 100, 'Transfer Error'],
  ])('%s: %s, %i%%, %s', (status, phase, progress, title) => {
    const view = transferPopupView(transfer(status));
    expect(view.phase).toBe(phase);
    expect(view.progressPercent).toBe(progress);
    expect(english(view.titleKey)).toBe(title);
  });

  it("an unknown status, or none yet, shows 'Processing transfer...' with a running bar", () => {
    for (const view of [transferPopupView(transfer('SETTLING')), transferPopupView(null)]) {
      expect(view).toMatchObject({ phase: 'pending', progressPercent: null, messageKey: null });
      expect(english(view.titleKey)).toBe('Processing transfer...');
    }
  });

  it("a rejection shows 'Transfer Error' with the server's reason, or the §8 text", () => {
    expect(english(transferPopupView(transfer('REJECTED', { reason: 'Insufficient balance' })).messageKey)).toBe(
      'Insufficient balance',
    );
    expect(english(transferPopupView(transfer('REJECTED')).messageKey)).toBe('Transfer failed. Please try again.');
  });

  it("a failed request shows 'Transfer Error' with its message", () => {
    const notFound = transferPopupView(
      transfer('CREATED'),
      new ApiError(404, 'TRANSFER_NOT_FOUND', 'Transfer not found'),
    );
    expect(notFound.phase).toBe('failure');
    expect(english(notFound.titleKey)).toBe('Transfer Error');
    expect(english(notFound.messageKey)).toBe('Transfer not found');
    expect(english(transferPopupView(null, new ApiError(0, 'TIMEOUT', 'x')).messageKey)).toBe('Network error occurred');
    expect(english(transferPopupView(null, new Error('bug')).messageKey)).toBe('Failed to get transfer status');
  });
});

describe('transfer popup: polling and auto-close (spec §4, §9)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function watch(
    answers: Array<TransferStatusSnapshot | Error>,
    initial: TransferStatusSnapshot | null = transfer('CREATED'),
  ) {
    const states: TransferWatchState[] = [];
    const fetchStatus = vi.fn(async () => {
      const answer = answers[Math.min(fetchStatus.mock.calls.length - 1, answers.length - 1)];
      if (!answer) throw new Error('no answer');
      if (answer instanceof Error) throw answer;
      return answer;
    });
    const onSettled = vi.fn();
    const onAutoClose = vi.fn();
    const stop = watchTransferStatus({
      transferId: 't-1',
      initial,
      fetchStatus,
      onChange: (state) => states.push(state),
      onSettled,
      onAutoClose,
    });
    const last = () => states.at(-1);
    return { fetchStatus, onSettled, onAutoClose, stop, states, last };
  }

  it('uses the spec constants: a poll every 2 s, closing 10 s after the end', () => {
    expect(TRANSFER_STATUS_POLL_INTERVAL_MS).toBe(2_000);
    expect(TRANSFER_POPUP_AUTO_CLOSE_MS).toBe(10_000);
  });

  it('polls every 2 s while the transfer is under way', async () => {
    const { fetchStatus, last } = watch([transfer('CREATED'), transfer('WAITING')]);
    expect(fetchStatus).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1_999);
    expect(fetchStatus).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchStatus).toHaveBeenCalledTimes(1);
    expect(fetchStatus).toHaveBeenCalledWith('t-1');
    expect(last()?.transfer?.status).toBe('CREATED');
    await vi.advanceTimersByTimeAsync(2_000);
    expect(fetchStatus).toHaveBeenCalledTimes(2);
    expect(last()?.transfer?.status).toBe('WAITING');
    await vi.advanceTimersByTimeAsync(6_000);
    expect(fetchStatus).toHaveBeenCalledTimes(5);
  });

  it('polls at once when it opens without a status', async () => {
    const { fetchStatus } = watch([transfer('WAITING')], null);
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchStatus).toHaveBeenCalledTimes(1);
  });

  it('stops polling at FINISHED, reports it once, and closes 10 s later', async () => {
    const { fetchStatus, onSettled, onAutoClose, last } = watch([transfer('WAITING'), transfer('FINISHED')]);
    await vi.advanceTimersByTimeAsync(4_000);
    expect(last()).toMatchObject({ settled: true, transfer: { status: 'FINISHED' } });
    expect(onSettled).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(TRANSFER_POPUP_AUTO_CLOSE_MS - 1);
    expect(onAutoClose).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(onAutoClose).toHaveBeenCalledTimes(1);
    expect(fetchStatus).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetchStatus).toHaveBeenCalledTimes(2);
    expect(onAutoClose).toHaveBeenCalledTimes(1);
  });

  it('closes 10 s after REJECTED too', async () => {
    const { onAutoClose, last } = watch([transfer('REJECTED', { reason: 'Insufficient balance' })]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(transferPopupView(last()?.transfer ?? null).phase).toBe('failure');
    await vi.advanceTimersByTimeAsync(TRANSFER_POPUP_AUTO_CLOSE_MS);
    expect(onAutoClose).toHaveBeenCalledTimes(1);
  });

  it('settles at once when the send already answered a final status (a replayed send)', async () => {
    const { fetchStatus, onSettled, onAutoClose } = watch([], transfer('FINISHED'));
    expect(onSettled).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(TRANSFER_POPUP_AUTO_CLOSE_MS);
    expect(onAutoClose).toHaveBeenCalledTimes(1);
    expect(fetchStatus).not.toHaveBeenCalled();
  });

  it('rides out a dropped poll, and reports a failure after three in a row', async () => {
    const offline = new ApiError(0, 'NETWORK_ERROR', 'Network error occurred');
    const recovering = watch([offline, transfer('FINISHED')]);
    await vi.advanceTimersByTimeAsync(4_000);
    expect(recovering.last()).toMatchObject({ settled: true, failure: null, transfer: { status: 'FINISHED' } });
    recovering.stop();

    const down = watch([offline]);
    await vi.advanceTimersByTimeAsync(2_000 * (TRANSFER_STATUS_MAX_FAILED_POLLS - 1));
    expect(down.states).toEqual([]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(down.fetchStatus).toHaveBeenCalledTimes(TRANSFER_STATUS_MAX_FAILED_POLLS);
    expect(down.last()).toMatchObject({ settled: true, failure: offline });
    expect(down.onSettled).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(TRANSFER_POPUP_AUTO_CLOSE_MS);
    expect(down.onAutoClose).toHaveBeenCalledTimes(1);
  });

  it('reports a refused request at once (no retry helps a 404)', async () => {
    const { fetchStatus, last } = watch([new ApiError(404, 'TRANSFER_NOT_FOUND', 'Transfer not found')]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(last()).toMatchObject({ settled: true });
    await vi.advanceTimersByTimeAsync(20_000);
    expect(fetchStatus).toHaveBeenCalledTimes(1);
  });

  it('stops everything when closed by hand', async () => {
    const { fetchStatus, onAutoClose, stop } = watch([transfer('WAITING')]);
    await vi.advanceTimersByTimeAsync(2_000);
    stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetchStatus).toHaveBeenCalledTimes(1);
    expect(onAutoClose).not.toHaveBeenCalled();
  });
});
