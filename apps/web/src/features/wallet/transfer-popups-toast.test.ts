import { afterEach, describe, expect, it } from 'vitest';
import { hasOpenTransferPopup, useTransferPopups } from './transfer-popups.ts';

/** One message per transfer (issue 13): while its status popup is open, its notification does not toast. */
describe('transfer popup and notification toast', () => {
  afterEach(() => useTransferPopups.getState().clear());

  it('knows which transfers a popup follows', () => {
    expect(hasOpenTransferPopup('t-1')).toBe(false);
    useTransferPopups.getState().open('t-1');
    expect(hasOpenTransferPopup('t-1')).toBe(true);
    expect(hasOpenTransferPopup('t-2')).toBe(false);
    expect(hasOpenTransferPopup(undefined)).toBe(false);
    useTransferPopups.getState().close('t-1');
    expect(hasOpenTransferPopup('t-1')).toBe(false);
  });
});
