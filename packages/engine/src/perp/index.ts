/** Perpetual futures risk maths: margin, tiers, positions, liquidation, pre-trade check, mark price, funding, ADL. */
export * from './adl.ts';
export * from './api.ts';
export * from './funding.ts';
export * from './liquidation.ts';
export * from './liquidation-index.ts';
export * from './margin.ts';
export * from './position.ts';
export * from './pretrade.ts';
export * from './pricing.ts';
export * from './rounding.ts';
export * from './tiers.ts';
export * from './units.ts';
