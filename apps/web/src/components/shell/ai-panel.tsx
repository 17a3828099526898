import { AI_PANEL_WIDTH_PX } from '@platform/contracts';
import { Sparkles, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';

/** Spec §2.2: the assistant's 400px side panel. Its chat arrives in a coming release. */
export function AiPanel({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  if (!open) return null;
  return (
    <aside
      className="ai-panel"
      aria-labelledby="ai-panel-title"
      data-testid="ai-panel"
      style={{ width: `min(100vw, ${AI_PANEL_WIDTH_PX}px)` }}
    >
      <header className="ai-panel-header">
        <span className="ai-badge" aria-hidden="true">
          <Sparkles size={16} />
        </span>
        <h2 id="ai-panel-title">{t('ai.title')}</h2>
        <button type="button" className="icon-button" aria-label={t('ai.close')} onClick={onClose}>
          <X size={18} aria-hidden="true" />
        </button>
      </header>
      <div className="ai-panel-body">
        <div className="ai-empty">
          <span className="ai-empty-icon" aria-hidden="true">
            <Sparkles size={24} />
          </span>
          <p className="ai-empty-title">{t('ai.beingBuiltTitle')}</p>
          <p className="ai-empty-body">{t('ai.beingBuiltBody')}</p>
        </div>
      </div>
    </aside>
  );
}

export function AiToggle({ open, onToggle }: { open: boolean; onToggle: () => void }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="ai-toggle"
      aria-label={t('ai.toggle')}
      aria-expanded={open}
      data-testid="ai-toggle"
      onClick={onToggle}
    >
      {open ? <X size={22} aria-hidden="true" /> : <Sparkles size={22} aria-hidden="true" />}
    </button>
  );
}
