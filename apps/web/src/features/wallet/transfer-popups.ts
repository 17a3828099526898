import { create } from 'zustand';
import type { TransferStatusSnapshot } from '../../api/wallet.ts';

/**
 * The open transfer status popups (spec §2.2 overlays, §4), newest last. Not persisted: a popup
 * belongs to the page that sent the transfer; the history keeps the lasting record.
 */

/** Most popups open at once; a further one closes the oldest (its transfer stays in the history). */
export const MAX_TRANSFER_POPUPS = 4;

export interface TransferPopupEntry {
  transferId: string;
  initial: TransferStatusSnapshot | null;
}

interface TransferPopupsState {
  popups: TransferPopupEntry[];
  open: (transferId: string, initial?: TransferStatusSnapshot | null) => void;
  close: (transferId: string) => void;
  clear: () => void;
}

export const useTransferPopups = create<TransferPopupsState>()((set) => ({
  popups: [],
  // A send replayed under the same key answers the same transfer: it keeps its one popup.
  open: (transferId, initial = null) =>
    set((state) =>
      state.popups.some((popup) => popup.transferId === transferId)
        ? state
        : { popups: [...state.popups, { transferId, initial }].slice(-MAX_TRANSFER_POPUPS) },
    ),
  close: (transferId) => set((state) => ({ popups: state.popups.filter((popup) => popup.transferId !== transferId) })),
  clear: () => set({ popups: [] }),
}));

export function openTransferPopup(transfer: TransferStatusSnapshot): void {
  useTransferPopups.getState().open(transfer.id, transfer);
}

/** True while a status popup follows this transfer (its notification then needs no toast). */
export function hasOpenTransferPopup(transferId: string | null | undefined): boolean {
  if (!transferId) return false;
  return useTransferPopups.getState().popups.some((popup) => popup.transferId === transferId);
}
