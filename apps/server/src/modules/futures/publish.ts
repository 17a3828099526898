import type { FuturesOrder, positionUpdateSchema, Trade } from '@platform/contracts';
import type { z } from 'zod';
import type { PubSub } from '../../realtime/pubsub.ts';
import { BookPictures, type PicturedMarket } from '../trading/book-pictures.ts';
import type { PairSpec } from '../trading/pair-spec.ts';
import type { Batch } from './batch.ts';
import type { FuturesMarketSpec } from './markets.ts';
import { accountView, type MarkOf, positionView } from './risk.ts';
import { orderView } from './rows.ts';
import type { FuturesState } from './state.ts';
import { unitsText } from './units.ts';

export const accountPositionsTopic = (accountId: string) => `account.${accountId}.positions`;
export const accountFuturesOrdersTopic = (accountId: string) => `account.${accountId}.futures_orders`;
type PositionUpdate = z.infer<typeof positionUpdateSchema>;

/** The spot book pictures' view of a perp market (their text only needs the id and the two precisions). */
function picturedSpec(spec: FuturesMarketSpec): PairSpec {
  return { id: spec.id, pricePrecision: spec.priceDecimals, quantityPrecision: spec.quantityDecimals } as PairSpec;
}

/**
 * What the exchange announces once a batch has committed: orderbook.{MARKET} (the spot snapshot and
 * delta format, the market id in trading_pair), trades.{MARKET}, and per account the positions and
 * futures order channels.
 */
export class Publisher {
  private readonly pictures = new Map<string, BookPictures>();
  constructor(
    private readonly pubsub: PubSub,
    private readonly markOf: MarkOf,
    private readonly clock: () => Date,
  ) {}

  private pictured(state: FuturesState, spec: FuturesMarketSpec): PicturedMarket {
    return { spec: picturedSpec(spec), engine: state.engine(spec.id), lastSequence: state.sequence };
  }

  /** Every book as a fresh retained snapshot (after start or a reload). */
  reset(state: FuturesState): void {
    for (const spec of state.markets.values()) {
      const pictures = new BookPictures();
      this.pictures.set(spec.id, pictures);
      this.pubsub.retain(`orderbook.${spec.id}`, pictures.reset(this.pictured(state, spec), this.clock()));
    }
  }

  committed(state: FuturesState, batch: Batch): void {
    const now = this.clock();
    const books = [...batch.books].map((id) => {
      const spec = state.markets.get(id)!;
      return { id, update: this.pictures.get(id)?.delta(this.pictured(state, spec), now) ?? null };
    });
    const messages = this.userMessages(state, batch);
    setImmediate(() => {
      for (const { id, update } of books) {
        if (!update) continue;
        this.pubsub.publish(`orderbook.${id}`, update.delta);
        this.pubsub.retain(`orderbook.${id}`, update.snapshot);
      }
      for (const trade of batch.trades) this.pubsub.publish(`trades.${trade.marketId}`, tradeMessage(state, trade));
      for (const [topic, message] of messages) this.pubsub.publish(topic, message);
    });
  }

  private userMessages(state: FuturesState, batch: Batch): [string, FuturesOrder | PositionUpdate][] {
    const messages: [string, FuturesOrder | PositionUpdate][] = [];
    for (const order of batch.orders.values()) {
      const topic = accountFuturesOrdersTopic(order.accountId);
      if (this.pubsub.hasSubscribers(topic))
        messages.push([topic, orderView(state.markets.get(order.marketId)!, order)]);
    }
    for (const [key, reason] of batch.positionReasons) {
      const [accountId, marketId] = key.split('|') as [string, string];
      const topic = accountPositionsTopic(accountId);
      if (!this.pubsub.hasSubscribers(topic)) continue;
      const position = state.position(accountId, marketId);
      messages.push([
        topic,
        {
          market: marketId,
          position: position.sizeLots === 0 ? null : positionView(state, position, this.markOf),
          account: accountView(state, accountId, this.markOf),
          reason,
        },
      ]);
    }
    return messages;
  }
}

function tradeMessage(state: FuturesState, trade: Batch['trades'][number]): Trade {
  const spec = state.markets.get(trade.marketId)!;
  return {
    id: trade.id,
    trading_pair: trade.marketId,
    symbol: `${spec.base}USD-PERP`,
    price: unitsText(trade.priceTicks, spec.priceDecimals),
    quantity: unitsText(trade.lots, spec.quantityDecimals),
    total: unitsText(BigInt(trade.priceTicks) * BigInt(trade.lots), spec.priceDecimals + spec.quantityDecimals),
    side: trade.takerSide,
    timestamp: trade.at.getTime(),
  };
}
