import { decimal, formatDecimal } from '@platform/money';
import type { Database } from '../../db/database.ts';
import { balancesOf, type EntryInput, postEntries } from '../ledger/service.ts';
import type { Exchange } from './exchange.ts';
import { usdPicosOf } from './market-profile.ts';
import type { MarketSequencer } from './sequencer.ts';

/** The house market maker: one account, no password, so nobody can sign in as it. */
export const MARKET_MAKER_ACCOUNT_ID = '00000000-0000-4000-8000-00000000a11c';
/** The simulated takers: one account, no password, trading against the makers. */
export const MARKET_TAKER_ACCOUNT_ID = '00000000-0000-4000-8000-00000000a11d';

export const HOUSE_ACCOUNTS = [
  {
    id: MARKET_MAKER_ACCOUNT_ID,
    email: 'market-maker@system.meridian.invalid',
    firstName: 'Market',
    lastName: 'Maker',
  },
  {
    id: MARKET_TAKER_ACCOUNT_ID,
    email: 'market-taker@system.meridian.invalid',
    firstName: 'Market',
    lastName: 'Taker',
  },
] as const;

/** The house's own accounts (the market maker and the simulated takers): their orders notify nobody. */
export const HOUSE_ACCOUNT_IDS: ReadonlySet<string> = new Set(HOUSE_ACCOUNTS.map((account) => account.id));

/** Each currency is topped up to this USD value whenever it falls below half of it. */
const FUNDING_USD = 20_000_000n;
const SCALE = 8;

export async function ensureHouseAccount(db: Database, accountId: string, now: Date): Promise<void> {
  const account = HOUSE_ACCOUNTS.find((entry) => entry.id === accountId);
  if (!account) throw new Error(`not a house account: ${accountId}`);
  await db.query(
    `INSERT INTO accounts (id, email, password_hash, first_name, last_name, terms_accepted_at, created_at, updated_at)
     VALUES ($1, $2, NULL, $3, $4, $5, $5, $5) ON CONFLICT DO NOTHING`,
    [account.id, account.email, account.firstName, account.lastName, now.toISOString()],
  );
}

/**
 * Tops a house account up, from the system market_making account (the house's capital, which may
 * go negative), in every listed currency that fell below half of FUNDING_USD worth: one balance
 * read and at most one ledger transaction, like any deposit.
 */
export async function fundHouseAccount(
  db: Database,
  accountId: string,
  currencies: Iterable<string>,
  reference: string,
): Promise<void> {
  const rows = await balancesOf(db, accountId);
  const held = new Map(rows.map((row) => [row.currency, decimal(row.available)]));
  const entries: EntryInput[] = [];
  for (const currency of new Set(currencies)) {
    const usd = usdPicosOf(currency);
    if (usd === null) continue;
    const target = (FUNDING_USD * 10n ** 12n * 10n ** BigInt(SCALE)) / usd;
    const have = held.get(currency) ?? { units: 0n, scale: SCALE };
    const haveUnits =
      have.scale <= SCALE
        ? have.units * 10n ** BigInt(SCALE - have.scale)
        : have.units / 10n ** BigInt(have.scale - SCALE);
    if (haveUnits * 2n >= target) continue;
    const topUp = formatDecimal({ units: target - haveUnits, scale: SCALE });
    entries.push({
      kind: 'market_making_funding',
      reference: `${accountId}:${currency}:${reference}`,
      metadata: { target: formatDecimal({ units: target, scale: SCALE }) },
      postings: [
        { owner: { kind: 'system', name: 'market_making' }, currency, bucket: 'available', amount: `-${topUp}` },
        { owner: { kind: 'user', accountId }, currency, bucket: 'available', amount: topUp },
      ],
    });
  }
  if (entries.length === 0) return;
  await db.transaction((tx) => postEntries(tx, entries));
}

/** How often a house bot checks its balances, besides after an order refused for want of funds. */
const FUNDING_CHECK_MS = 60_000;

/** The tradable markets a house bot works on: the listed pairs, or all when none are listed. */
export function houseMarkets(exchange: Exchange, pairs: readonly string[]): MarketSequencer[] {
  const wanted = new Set(pairs);
  return exchange.all().filter((market) => market.spec.tradable && (wanted.size === 0 || wanted.has(market.spec.id)));
}

/**
 * Keeps one house account funded in its markets' currencies: at start, then once a minute, and at
 * once after an order was refused for want of funds; never two top-ups at a time.
 */
export class HouseFunding {
  private checkedAtMs = Number.NEGATIVE_INFINITY;
  private running: Promise<void> | null = null;

  constructor(
    private readonly db: Database,
    private readonly accountId: string,
    private readonly markets: () => MarketSequencer[],
    private readonly clock: () => Date,
    private readonly onError: (error: unknown) => void,
  ) {}

  fund(): Promise<void> {
    const currencies = this.markets().flatMap((market) => [market.spec.base, market.spec.quote]);
    const now = this.clock();
    this.checkedAtMs = now.getTime();
    this.running = fundHouseAccount(this.db, this.accountId, currencies, now.toISOString())
      .catch(this.onError)
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  /** A top-up when the last check is a minute old. */
  checkWhenDue(): void {
    if (this.clock().getTime() - this.checkedAtMs >= FUNDING_CHECK_MS && this.running === null) void this.fund();
  }

  /** A top-up now: an order was refused for want of funds. */
  afterRefusal(): void {
    if (this.running === null) void this.fund();
  }

  /** Resolves once a running top-up has ended. */
  settled(): Promise<void> {
    return this.running ?? Promise.resolve();
  }
}
