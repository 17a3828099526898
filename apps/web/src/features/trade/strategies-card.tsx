import { useTranslation } from 'react-i18next';

const STRATEGIES = ['dca', 'grid', 'twap', 'iceberg', 'momentum'] as const;

/**
 * Spec §2.6 advanced strategies panel: its place on the page, listing what will come, in the
 * user's words ("Coming soon"); nothing here pretends to run one.
 */
export function StrategiesCard() {
  const { t } = useTranslation();
  return (
    <section
      className="trade-card trade-strategies"
      aria-labelledby="trade-strategies-title"
      data-testid="strategies-card"
    >
      <header className="trade-card-header">
        <h2 id="trade-strategies-title" className="trade-card-title">
          {t('trade.strategies.title')}
        </h2>
        <span className="trade-soon">{t('trade.strategies.coming')}</span>
      </header>
      <p className="trade-strategies-intro muted">{t('trade.strategies.description')}</p>
      <ul className="trade-strategies-list">
        {STRATEGIES.map((strategy) => (
          <li key={strategy} className="trade-strategy" data-testid={`strategy-${strategy}`}>
            <span className="trade-strategy-name">{t(`trade.strategies.${strategy}.name`)}</span>
            <span className="trade-strategy-description">{t(`trade.strategies.${strategy}.description`)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
