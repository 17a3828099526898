/** Spec §2.7's wallet tabs and §2.1's carried actions, read from the address (?tab=, ?action=). */

export const walletTabs = ['triple-a', 'legacy', 'kyc', 'payment'] as const;
export type WalletTab = (typeof walletTabs)[number];

/** Deposit and withdraw are §2.1's; buy (with a card) and convert are reachable the same way (issue 13). */
export const walletActions = ['deposit', 'withdraw', 'buy', 'convert'] as const;
export type WalletAction = (typeof walletActions)[number];

/** i18n keys under wallet.tabs. */
export const walletTabLabelKey = {
  'triple-a': 'tripleA',
  legacy: 'legacy',
  kyc: 'kyc',
  payment: 'payment',
} as const satisfies Record<WalletTab, string>;

export function parseWalletAction(value: string | null): WalletAction | null {
  return walletActions.find((action) => action === value) ?? null;
}

/** A carried action belongs to the Triple-A wallet, so it wins over a tab in the same address. */
export function parseWalletTab(tab: string | null, action: string | null): WalletTab {
  if (parseWalletAction(action)) return 'triple-a';
  return walletTabs.find((candidate) => candidate === tab) ?? 'triple-a';
}

/**
 * The tab a key press moves to in the tab list (WAI-ARIA tabs: arrows wrap, Home and End). In a
 * right-to-left page the arrows swap, so "next" stays the arrow that points along the reading.
 */
export function tabAfterKey(current: WalletTab, key: string, rightToLeft = false): WalletTab | null {
  const index = walletTabs.indexOf(current);
  const last = walletTabs.length - 1;
  const forward = rightToLeft ? 'ArrowLeft' : 'ArrowRight';
  const backward = rightToLeft ? 'ArrowRight' : 'ArrowLeft';
  const next =
    key === forward
      ? (index + 1) % walletTabs.length
      : key === backward
        ? (index - 1 + walletTabs.length) % walletTabs.length
        : key === 'Home'
          ? 0
          : key === 'End'
            ? last
            : null;
  return next === null ? null : (walletTabs[next] ?? null);
}
