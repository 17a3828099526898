import type { DepositAddress } from '@platform/contracts';
import QRCode from 'qrcode';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/database.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import { invariant } from '../../lib/invariant.ts';
import { hdSeedOf, KeyTree } from './hd-keys.ts';
import { type DepositRoute, findDepositRoute, type NetworkSpec, pathFor } from './networks.ts';

/**
 * One deposit address per account and network, derived from the HD seed at the account's key
 * index (docs/payments.md has the paths). The derivation is deterministic, so two first requests
 * racing compute the same address and the table's keys make one of them the row both answer.
 */

/** Memos and destination tags start here, so that every memo has the same number of digits for a long while. */
export const MEMO_BASE = 100_000;

/** QR images kept in memory (a PNG per address; about 1 KB each). */
const QR_CACHE_LIMIT = 5_000;
/** QR image side: sharp on a phone screen and for a camera at arm's length, and still about 1 KB. */
const QR_WIDTH_PX = 256;
/** Quiet zone around the code, in modules: enough for scanners on the page's plain background. */
const QR_MARGIN_MODULES = 2;

/** The route of a requested currency, or 'Currency {X} is not supported' (§5). */
export function depositRouteOf(currency: string, network?: string): Result<DepositRoute> {
  const route = findDepositRoute(currency, network);
  if (route) return ok(route);
  const shown = currency.trim().toUpperCase() || currency;
  return fail('CURRENCY_NOT_SUPPORTED', {
    message: network
      ? `Currency ${shown} is not supported on ${network.trim().toUpperCase()}`
      : `Currency ${shown} is not supported`,
    details: { field: 'currency' },
  });
}

/** The account's key index, given on first use. */
async function keyIndexOf(q: Queryable, accountId: string): Promise<number> {
  const inserted = await q.query<{ key_index: number }>(
    `INSERT INTO deposit_key_indexes (account_id) VALUES ($1) ON CONFLICT (account_id) DO NOTHING RETURNING key_index`,
    [accountId],
  );
  const row =
    inserted.rows[0] ??
    (
      await q.query<{ key_index: number }>(`SELECT key_index FROM deposit_key_indexes WHERE account_id = $1`, [
        accountId,
      ])
    ).rows[0];
  invariant(row, `no deposit key index for ${accountId}`);
  return Number(row.key_index);
}

/** What an account's address on a network is: the same every time for the same seed and index. */
export function deriveDepositAddress(
  tree: KeyTree,
  spec: NetworkSpec,
  keyIndex: number,
): { address: string; memo: string | null; path: string } {
  const path = pathFor(spec, keyIndex);
  return {
    address: spec.address(tree, path, keyIndex),
    memo: spec.memoLabel ? String(MEMO_BASE + keyIndex) : null,
    path,
  };
}

type AddressRow = { address: string; memo: string | null };

export class DepositAddresses {
  private readonly qrCache = new Map<string, string>();
  /** Derived from the seed on first use: a server that is never asked for an address never opens it. */
  private tree: KeyTree | null = null;

  constructor(private readonly context: AppContext) {}

  private keyTree(): KeyTree {
    this.tree ??= new KeyTree(hdSeedOf(this.context.config.walletHdSeed, this.context.secrets.dataKey));
    return this.tree;
  }

  async addressFor(accountId: string, currency: string, network?: string): Promise<Result<DepositAddress>> {
    const found = depositRouteOf(currency, network);
    if (!found.ok) return found;
    const route = found.value;
    const { spec } = route;
    const { db } = this.context;
    let row = await selectAddress(db, accountId, spec.network);
    if (!row) {
      const keyIndex = await keyIndexOf(db, accountId);
      const derived = deriveDepositAddress(this.keyTree(), spec, keyIndex);
      await db.query(
        `INSERT INTO deposit_addresses (account_id, network, family, derivation_path, address, memo)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (account_id, network) DO NOTHING`,
        [accountId, spec.network, spec.family, derived.path, derived.address, derived.memo],
      );
      row = await selectAddress(db, accountId, spec.network);
      if (!row) return fail('DEPOSIT_ADDRESS_FAILED');
    }
    return ok({
      currency: route.currency,
      code: route.code,
      network: spec.network,
      address: row.address,
      memo: row.memo,
      memo_label: spec.memoLabel,
      qr: await this.qrOf(row.address),
      min_confirmations: route.requiredConfirmations,
    });
  }

  /** The QR code encodes the address alone (wallets scan it into the address field); the memo is shown under it. */
  private async qrOf(address: string): Promise<string> {
    const cached = this.qrCache.get(address);
    if (cached) return cached;
    const png = await QRCode.toDataURL(address, {
      errorCorrectionLevel: 'M',
      margin: QR_MARGIN_MODULES,
      width: QR_WIDTH_PX,
    });
    if (this.qrCache.size >= QR_CACHE_LIMIT) this.qrCache.clear();
    this.qrCache.set(address, png);
    return png;
  }
}

async function selectAddress(q: Queryable, accountId: string, network: string): Promise<AddressRow | undefined> {
  const found = await q.query<AddressRow>(
    `SELECT address, memo FROM deposit_addresses WHERE account_id = $1 AND network = $2`,
    [accountId, network],
  );
  return found.rows[0];
}

/** Who owns a destination on a network, if anyone: the account of the address (and memo, where the network has one). */
export async function ownerOfDestination(
  q: Queryable,
  network: string,
  address: string,
  memo: string | null,
): Promise<string | null> {
  const found = await q.query<{ account_id: string }>(
    `SELECT account_id FROM deposit_addresses WHERE network = $1 AND address = $2 AND coalesce(memo, '') = $3`,
    [network, address, memo ?? ''],
  );
  return found.rows[0]?.account_id ?? null;
}
