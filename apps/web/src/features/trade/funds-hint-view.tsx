import { Info } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCardOptions } from '../payments/card-queries.ts';
import '../../theme/wallet-actions.css';

/**
 * Shown under "Available" when the trader lacks the currency the order spends: where to get it, in
 * the trader's words: buy it with a card (when the provider sells it), deposit it, or convert
 * another currency into it. The links open those forms on the wallet page, set to this currency.
 */
export function FundsHint({ currency }: { currency: string }) {
  const { t } = useTranslation();
  const card = useCardOptions();
  const byCard = card.data?.currencies.includes(currency) ?? false;
  const code = encodeURIComponent(currency);
  return (
    <div className="funds-hint" role="note" data-testid="order-funds-hint">
      <Info size={15} aria-hidden="true" />
      <div>
        <p>{t('trade.form.fundsHint.text', { currency })}</p>
        <p className="funds-hint-links">
          {byCard ? (
            <Link to={`/wallet?action=buy&currency=${code}`} data-testid="order-funds-buy">
              {t('trade.form.fundsHint.buy', { currency })}
            </Link>
          ) : null}
          <Link to="/wallet?action=deposit" data-testid="order-funds-deposit">
            {t('trade.form.fundsHint.deposit')}
          </Link>
          <Link to={`/wallet?action=convert&to=${code}`} data-testid="order-funds-convert">
            {t('trade.form.fundsHint.convert', { currency })}
          </Link>
        </p>
      </div>
    </div>
  );
}
