import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button.tsx';
import { Modal } from '../../components/ui/modal.tsx';
import '../../theme/orders.css';
import '../../theme/preferences.css';

export interface ConfirmLine {
  label: string;
  value: string;
}

/**
 * Settings > Preferences "Confirm before placing an order": the order once more, as the form
 * would send it, before anything is sent. Nothing leaves the browser until Place is pressed.
 */
export function OrderConfirmDialog({
  open,
  title,
  lines,
  placeLabel,
  onPlace,
  onClose,
}: {
  open: boolean;
  title: string;
  lines: readonly ConfirmLine[];
  placeLabel: string;
  onPlace: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Modal open={open} onClose={onClose} labelledBy={titleId} maxWidthPx={420} testId="order-confirm-dialog">
      <div className="orders-confirm">
        <h2 id={titleId} className="orders-modify-title">
          {title}
        </h2>
        <dl className="order-confirm-lines">
          {lines.map((line) => (
            <div key={line.label} className="order-confirm-line">
              <dt className="muted">{line.label}</dt>
              <dd className="tabular">{line.value}</dd>
            </div>
          ))}
        </dl>
        <div className="orders-modify-actions">
          <Button variant="secondary" onClick={onClose}>
            {t('trade.form.confirmBack')}
          </Button>
          <Button onClick={onPlace} data-testid="order-confirm-place">
            {placeLabel}
          </Button>
        </div>
      </div>
    </Modal>
  );
}
