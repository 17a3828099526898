import { FEES, MAX_FUTURES_LEVERAGE, PROCESSING_TIMES } from '@platform/contracts';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { localizedNumber } from '../../state/preferences-store.ts';

/** Spec §9: the fee and timing figures of the help text. */
export function Component() {
  const { t } = useTranslation();
  const { cryptoDepositMinutes, cryptoWithdrawalMinutes, fiatWithdrawalBusinessDays } = PROCESSING_TIMES;
  return (
    <div className="screen">
      <PageHeader title={t('pages.helpFees.title')} description={t('pages.helpFees.description')} />
      <section className="card prose">
        <ul>
          <li>
            {t('pages.helpFees.spot', {
              maker: localizedNumber(FEES.spot.makerPercent),
              taker: localizedNumber(FEES.spot.takerPercent),
            })}
          </li>
          <li>
            {t('pages.helpFees.futures', {
              maker: localizedNumber(FEES.futures.makerPercent),
              taker: localizedNumber(FEES.futures.takerPercent),
              leverage: MAX_FUTURES_LEVERAGE,
            })}
          </li>
          <li>{t('pages.helpFees.discount', { from: localizedNumber(FEES.tradingFeeFromPercent) })}</li>
          <li>{t('pages.helpFees.deposits')}</li>
          <li>
            {t('pages.helpFees.timings', {
              depositMin: cryptoDepositMinutes.min,
              depositMax: cryptoDepositMinutes.max,
              withdrawMin: cryptoWithdrawalMinutes.min,
              withdrawMax: cryptoWithdrawalMinutes.max,
              fiatMin: fiatWithdrawalBusinessDays.min,
              fiatMax: fiatWithdrawalBusinessDays.max,
            })}
          </li>
        </ul>
      </section>
    </div>
  );
}
