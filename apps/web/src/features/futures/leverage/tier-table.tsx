import type { FuturesTier } from '@platform/contracts';
import clsx from 'clsx';
import { useTranslation } from 'react-i18next';
import { formatRatePercent, formatUsd } from '../futures-format.ts';

/** The market's risk-limit tiers (Binance's "leverage and margin" table), the position's highlighted. */
export function TierTable({ tiers, currentTier }: { tiers: readonly FuturesTier[]; currentTier: number | undefined }) {
  const { t } = useTranslation();
  return (
    <table className="fut-table fut-tier-table" data-testid="futures-tier-table">
      <caption>{t('futures.leverage.tiers')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('futures.leverage.tier')}</th>
          <th scope="col">{t('futures.leverage.notional')}</th>
          <th scope="col">{t('futures.leverage.maxLeverage')}</th>
          <th scope="col">{t('futures.leverage.maintenance')}</th>
        </tr>
      </thead>
      <tbody>
        {tiers.map((tier) => {
          const current = tier.tier === currentTier;
          return (
            <tr
              key={tier.tier}
              className={clsx(current && 'fut-tier-current')}
              aria-current={current ? 'true' : undefined}
              title={current ? t('futures.leverage.current') : undefined}
              data-testid={`futures-tier-${tier.tier}`}
            >
              <td>{tier.tier}</td>
              <td className="tabular">
                {formatUsd(tier.notional_floor)} – {formatUsd(tier.notional_cap)}
              </td>
              <td className="tabular">{tier.max_leverage}x</td>
              <td className="tabular">{formatRatePercent(tier.maintenance_margin_rate, 2)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
