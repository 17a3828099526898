import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Segmented } from '../../components/ui/segmented.tsx';
import { ConvertPanel } from '../conversions/convert-section.tsx';
import { LegacyActivity } from '../conversions/legacy-activity.tsx';
import { QuickTradePanel } from '../conversions/quick-trade-section.tsx';
import { LegacyHistory } from './legacy-history.tsx';

/**
 * Spec §2.7's "Legacy Wallet" tab. The spec names the tab and nothing of its content; here it is
 * the account's own wallet service (the §7.3 "wallet and conversion service", as opposed to the
 * payment provider of the Triple-A tab), so it holds what that service does beyond balances and
 * transfers:
 *  - the conversion desk: Convert (a quote with its rate, spread and validity, then the conversion,
 *    §3.5 Conversion) and Quick trade (sell at market with an optional minimum, §3.5 Trade);
 *  - the desk's records (conversions, quick trades);
 *  - the full transaction history of every balance, with type, currency and date filters.
 * It shares the one ledger with the Triple-A tab: the same balances, moved by the same conversions.
 */

type DeskMode = 'convert' | 'trade';
const deskModes: readonly DeskMode[] = ['convert', 'trade'];

export function LegacyWallet() {
  return (
    <div className="wallet-sections" data-testid="legacy-wallet">
      <div className="wallet-columns legacy-columns">
        <ConversionDesk />
        <LegacyActivity />
      </div>
      <LegacyHistory />
    </div>
  );
}

function ConversionDesk() {
  const { t } = useTranslation();
  const [mode, setMode] = useState<DeskMode>('convert');
  return (
    <section className="wallet-card convert-card" aria-labelledby="legacy-desk-title" data-testid="legacy-desk">
      <header className="wallet-card-header">
        <div>
          <h2 id="legacy-desk-title" className="wallet-card-title">
            {t(mode === 'convert' ? 'wallet.convert.title' : 'wallet.legacy.trade.title')}
          </h2>
          <p className="wallet-card-description">
            {t(mode === 'convert' ? 'wallet.convert.description' : 'wallet.legacy.trade.description')}
          </p>
        </div>
        <Segmented
          legend={t('wallet.legacy.deskModes')}
          options={deskModes}
          value={mode}
          onChange={setMode}
          label={(option) => t(option === 'convert' ? 'wallet.legacy.modeConvert' : 'wallet.legacy.modeTrade')}
          testId={(option) => `desk-mode-${option}`}
          className="legacy-segmented"
        />
      </header>
      {mode === 'convert' ? <ConvertPanel /> : <QuickTradePanel />}
    </section>
  );
}
