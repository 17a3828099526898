import { errorCatalogue, type FuturesOrderPreview, type PlaceFuturesOrderRequest } from '@platform/contracts';
import { perp } from '@platform/engine';
import { fail, ok, type Result } from '../../lib/errors.ts';
import { Batch } from './batch.ts';
import type { DecideContext } from './context.ts';
import type { FuturesCore } from './exchange.ts';
import type { FuturesMarketSpec } from './markets.ts';
import { checkOrder } from './orders.ts';
import { parseOrder } from './parse.ts';
import { collateralOf, crossOf, type MarkOf } from './risk.ts';
import { moneyText, trimDecimal, unitsText } from './units.ts';

const nullableTrim = (text: string | null) => (text === null ? null : trimDecimal(text));

/** What an order would leave, from the exchange's current memory; nothing changes. */
export function previewOrder(
  core: FuturesCore,
  markOf: MarkOf,
  bandBps: number,
  accountId: string,
  spec: FuturesMarketSpec,
  body: PlaceFuturesOrderRequest,
): Result<FuturesOrderPreview> {
  const parsed = parseOrder(spec, body);
  if (!parsed.ok) return parsed;
  const state = core.state;
  const ctx: DecideContext = {
    state,
    batch: new Batch(),
    now: new Date(),
    markOf,
    bandBps,
    nextSequence: () => state.sequence,
    moved: new Set(),
    newId: () => 'preview',
  };
  const request = parsed.value;
  const engine = state.engine(spec.id);
  const price =
    request.priceTicks ??
    request.stopTicks ??
    (request.side === 'buy' ? engine.bestAsk() : engine.bestBid()) ??
    markOf(spec.id);
  if (price === null) return fail('FUTURES_MARKET_HALTED', { message: 'No mark price for this market yet' });
  const checked = checkOrder(ctx, accountId, request);
  const position = state.position(accountId, spec.id);
  const lots = checked.ok ? checked.value.order.quantityLots : (request.quantityLots ?? Math.abs(position.sizeLots));
  const setting = state.setting(accountId, spec.id);
  const before = { sizeLots: position.sizeLots, costTickLots: position.costTickLots };
  const effect = perp.applyFill(spec, before, request.side, lots, price);
  const notional = perp.notionalMoney(spec, price, lots);
  const opening = perp.notionalMoney(spec, price, effect.openedLots);
  const initial = effect.openedLots > 0 ? perp.initialMargin(opening, setting.leverage) : 0n;
  const fee = perp.divCeil(notional * spec.takerFee, perp.RATE_SCALE);
  const collateral =
    setting.mode === 'isolated'
      ? position.isolatedMargin + initial + effect.realisedPnl
      : collateralOf(state, position, markOf) + effect.realisedPnl - fee;
  const liquidation = perp.liquidationPriceTicks({ spec, tiers: spec.tiers, position: effect.position, collateral });
  const size = effect.position.sizeLots;
  return ok({
    market: spec.id,
    price: unitsText(price, spec.priceDecimals),
    notional: moneyText(notional),
    initial_margin: moneyText(initial),
    fee: moneyText(fee),
    cost: moneyText(request.reduceOnly ? 0n : initial + fee),
    available_balance: moneyText(maxZero(crossOf(state, accountId, markOf).available)),
    resulting_side: size === 0 ? null : size > 0 ? 'long' : 'short',
    resulting_size: unitsText(Math.abs(size), spec.quantityDecimals),
    resulting_entry_price: nullableTrim(perp.entryPriceDecimal(spec, effect.position, 2)),
    liquidation_price: liquidation === null ? null : unitsText(liquidation, spec.priceDecimals),
    max_leverage: spec.maxLeverage,
    error: checked.ok ? null : { code: checked.code, message: checked.message ?? errorCatalogue[checked.code].message },
  });
}

const maxZero = (value: bigint) => (value > 0n ? value : 0n);
