import { TRANSFER_POPUP_AUTO_CLOSE_MS, TRANSFER_STATUS_POLL_INTERVAL_MS } from '@platform/contracts';
import { ApiError } from '../../api/client.ts';
import type { TransferStatusSnapshot } from '../../api/wallet.ts';

/**
 * The transfer status popup of spec §4 as plain data: what each status shows, and a watcher that
 * polls the status every 2 s (§9) until the transfer ends, then closes the popup 10 s later.
 */

export type TransferPopupPhase = 'pending' | 'success' | 'failure';

export interface TransferPopupView {
  phase: TransferPopupPhase;
  /** 0 to 100; null while the status is unknown (the bar then runs indeterminate). */
  progressPercent: number | null;
  titleKey: string;
  /** The failure's words: an i18n key, or the server's own text (shown as it came). */
  messageKey: string | null;
}

/** Spec §4: about a third for CREATED, two thirds for WAITING, all of it at the end. */
export const TRANSFER_PROGRESS_PERCENT = { CREATED: 33, WAITING: 67, FINISHED: 100, REJECTED: 100 } as const;

/**
 * Consecutive failed polls tolerated before the popup reports a failure. One dropped answer on a
 * flaky network says nothing about the transfer, but a status that cannot be read for three polls
 * (about 6 s) is reported rather than spun on forever.
 */
export const TRANSFER_STATUS_MAX_FAILED_POLLS = 3;

export function isTerminalTransferStatus(status: string | null | undefined): boolean {
  return status === 'FINISHED' || status === 'REJECTED';
}

export function transferPopupView(
  transfer: Pick<TransferStatusSnapshot, 'status' | 'reason'> | null,
  failure: unknown = null,
): TransferPopupView {
  if (failure !== null) {
    return {
      phase: 'failure',
      progressPercent: 100,
      titleKey: 'errors.transferError',
      messageKey: failureKey(failure),
    };
  }
  switch (transfer?.status) {
    case 'CREATED':
      return {
        phase: 'pending',
        progressPercent: TRANSFER_PROGRESS_PERCENT.CREATED,
        titleKey: 'wallet.transferPopup.created',
        messageKey: null,
      };
    case 'WAITING':
      return {
        phase: 'pending',
        progressPercent: TRANSFER_PROGRESS_PERCENT.WAITING,
        titleKey: 'wallet.transferPopup.waiting',
        messageKey: null,
      };
    case 'FINISHED':
      return {
        phase: 'success',
        progressPercent: TRANSFER_PROGRESS_PERCENT.FINISHED,
        titleKey: 'wallet.transferPopup.finished',
        messageKey: null,
      };
    case 'REJECTED':
      return {
        phase: 'failure',
        progressPercent: TRANSFER_PROGRESS_PERCENT.REJECTED,
        titleKey: 'errors.transferError',
        messageKey: transfer.reason || 'errors.transferFailed',
      };
    default:
      return { phase: 'pending', progressPercent: null, titleKey: 'wallet.transferPopup.processing', messageKey: null };
  }
}

function failureKey(failure: unknown): string {
  if (failure instanceof ApiError) {
    if (failure.isNetworkError) return 'errors.networkError';
    if (failure.code !== 'INVALID_RESPONSE' && failure.message) return failure.message;
  }
  return 'wallet.errors.failedToGetTransferStatus';
}

/** A failure worth another poll: no answer, a timeout, a busy or failing server. */
export function isRetryableStatusFailure(failure: unknown): boolean {
  if (!(failure instanceof ApiError)) return false;
  return failure.isNetworkError || failure.status >= 500 || failure.status === 408 || failure.status === 429;
}

export interface TransferWatchState {
  transfer: TransferStatusSnapshot | null;
  /** The request failure that ended the watch, if one did. */
  failure: unknown;
  /** FINISHED, REJECTED or a failure: no more polls. */
  settled: boolean;
}

export interface TransferWatchOptions {
  transferId: string;
  /** The transfer as the send answered it; without it the first poll goes out at once. */
  initial?: TransferStatusSnapshot | null;
  fetchStatus: (transferId: string) => Promise<TransferStatusSnapshot>;
  onChange: (state: TransferWatchState) => void;
  /** Called once when the transfer ends (the balances and histories are stale then). */
  onSettled?: (state: TransferWatchState) => void;
  /** Called once, autoCloseMs after the transfer ended. */
  onAutoClose: () => void;
  pollIntervalMs?: number;
  autoCloseMs?: number;
  maxFailedPolls?: number;
}

/**
 * Polls one transfer's status. The next poll is timed from the end of the previous one, so a slow
 * answer never stacks requests. Returns the stop function (the popup was closed by hand).
 */
export function watchTransferStatus(options: TransferWatchOptions): () => void {
  const pollIntervalMs = options.pollIntervalMs ?? TRANSFER_STATUS_POLL_INTERVAL_MS;
  const autoCloseMs = options.autoCloseMs ?? TRANSFER_POPUP_AUTO_CLOSE_MS;
  const maxFailedPolls = options.maxFailedPolls ?? TRANSFER_STATUS_MAX_FAILED_POLLS;
  let state: TransferWatchState = { transfer: options.initial ?? null, failure: null, settled: false };
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  let failedPolls = 0;

  const settle = (next: TransferWatchState) => {
    state = { ...next, settled: true };
    options.onChange(state);
    options.onSettled?.(state);
    timer = setTimeout(() => {
      timer = null;
      if (!stopped) options.onAutoClose();
    }, autoCloseMs);
  };

  const schedulePoll = (delayMs: number) => {
    timer = setTimeout(() => {
      timer = null;
      void poll();
    }, delayMs);
  };

  const poll = async () => {
    try {
      const transfer = await options.fetchStatus(options.transferId);
      if (stopped) return;
      failedPolls = 0;
      if (isTerminalTransferStatus(transfer.status)) {
        settle({ transfer, failure: null, settled: true });
        return;
      }
      state = { transfer, failure: null, settled: false };
      options.onChange(state);
      schedulePoll(pollIntervalMs);
    } catch (failure) {
      if (stopped) return;
      failedPolls += 1;
      if (isRetryableStatusFailure(failure) && failedPolls < maxFailedPolls) {
        schedulePoll(pollIntervalMs);
        return;
      }
      settle({ transfer: state.transfer, failure, settled: true });
    }
  };

  if (isTerminalTransferStatus(state.transfer?.status)) settle(state);
  else schedulePoll(state.transfer ? pollIntervalMs : 0);

  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    timer = null;
  };
}
