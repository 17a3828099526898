import clsx from 'clsx';
import { ChevronDown, Search } from 'lucide-react';
import {
  type KeyboardEvent,
  type RefObject,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { FieldMessage } from '../../components/ui/text-field.tsx';
import { useDismiss } from '../../hooks/use-dismiss.ts';
import { formatBalance } from '../../lib/format.ts';
import { CoinIcon } from '../markets/coin-icon.tsx';
import { coinName } from '../markets/markets-model.ts';

/** The currencies whose code or name contain the query; codes starting with it first. */
export function filterCurrencies(currencies: readonly string[], query: string): string[] {
  const needle = query.trim().toLowerCase();
  if (needle === '') return [...currencies];
  const starts: string[] = [];
  const contains: string[] = [];
  for (const currency of currencies) {
    const code = currency.toLowerCase();
    const name = coinName(currency).toLowerCase();
    if (code.startsWith(needle)) starts.push(currency);
    else if (code.includes(needle) || name.includes(needle)) contains.push(currency);
  }
  return [...starts, ...contains];
}

interface CurrencySelectProps {
  label: string;
  /** Upper-case codes to choose from. */
  currencies: readonly string[];
  value: string;
  onChange: (currency: string) => void;
  /** Shown next to each currency (available balances), when given. */
  amounts?: ReadonlyMap<string, string> | null;
  error?: string | undefined;
  hint?: string | undefined;
  disabled?: boolean;
  testId: string;
  ref?: React.Ref<HTMLButtonElement>;
}

/** The active option after a key in the search box, or null when the key does not move it. */
export function activeAfterKey(key: string, active: number, count: number): number | null {
  const last = count - 1;
  if (key === 'ArrowDown') return active >= last ? 0 : active + 1;
  if (key === 'ArrowUp') return active <= 0 ? last : active - 1;
  if (key === 'Home') return 0;
  if (key === 'End') return Math.max(0, last);
  return null;
}

function amountText(amounts: ReadonlyMap<string, string> | null | undefined, currency: string): string | null {
  const amount = amounts?.get(currency);
  return amount === undefined ? null : formatBalance(amount, currency);
}

/** The picker's open list: its search, the active option, and the focus going in and back out. */
function useCurrencyList(currencies: readonly string[], value: string, disabled: boolean) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const rootRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement | null>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const options = useMemo(() => filterCurrencies(currencies, query), [currencies, query]);

  const close = useCallback((refocus: boolean) => {
    setOpen(false);
    setQuery('');
    if (refocus) triggerRef.current?.focus();
  }, []);
  const dismiss = useCallback(() => close(false), [close]);
  useDismiss(rootRef, open, dismiss);

  useLayoutEffect(() => {
    if (!open) return;
    searchRef.current?.focus();
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const element = listRef.current?.querySelector<HTMLElement>(`[data-index="${active}"]`);
    element?.scrollIntoView?.({ block: 'nearest' });
  }, [open, active]);

  const openList = () => {
    if (disabled) return;
    const index = currencies.indexOf(value);
    setActive(index >= 0 ? index : 0);
    setOpen(true);
  };

  const search = (text: string) => {
    setQuery(text);
    setActive(0);
  };

  return { open, query, search, active, setActive, options, close, openList, rootRef, triggerRef, searchRef, listRef };
}

/**
 * A searchable currency picker: a button that opens a list with a search box (ARIA combobox with a
 * listbox: arrows move, Enter picks, Escape closes and gives the focus back). About 50 wallet
 * currencies are too many for a plain select to scan.
 */
export function CurrencySelect({
  label,
  currencies,
  value,
  onChange,
  amounts,
  error,
  hint,
  disabled = false,
  testId,
  ref,
}: CurrencySelectProps) {
  const baseId = useId();
  const labelId = `${baseId}-label`;
  const listId = `${baseId}-list`;
  const messageId = `${baseId}-message`;
  const optionId = (index: number) => `${baseId}-option-${index}`;
  const list = useCurrencyList(currencies, value, disabled);
  const { open, active, options, close } = list;

  const pick = (currency: string | undefined) => {
    if (!currency) return;
    onChange(currency);
    close(true);
  };

  const onSearchKey = (event: KeyboardEvent<HTMLInputElement>) => {
    const next = activeAfterKey(event.key, active, options.length);
    if (next !== null) {
      event.preventDefault();
      list.setActive(next);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      pick(options[active]);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close(true);
    } else if (event.key === 'Tab') {
      close(false);
    }
  };

  const shownAmount = amountText(amounts, value);
  return (
    <div className={clsx('field currency-select', error && 'field-invalid')} ref={list.rootRef}>
      <span className="field-label" id={labelId}>
        {label}
      </span>
      <button
        ref={(element) => {
          list.triggerRef.current = element;
          if (typeof ref === 'function') ref(element);
          else if (ref) ref.current = element;
        }}
        type="button"
        className="input currency-select-trigger"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-labelledby={`${labelId} ${baseId}-value${shownAmount !== null ? ` ${baseId}-amount` : ''}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? messageId : undefined}
        disabled={disabled}
        data-testid={testId}
        onClick={() => (open ? close(false) : list.openList())}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            list.openList();
          }
        }}
      >
        <CoinIcon symbol={value} size={22} />
        <span className="currency-select-value" id={`${baseId}-value`}>
          <span className="currency-select-code">{value}</span>
          <span className="currency-select-name">{coinName(value)}</span>
        </span>
        {shownAmount !== null ? (
          <span className="currency-select-amount tabular" id={`${baseId}-amount`}>
            {shownAmount}
          </span>
        ) : null}
        <ChevronDown size={16} aria-hidden="true" className="currency-select-chevron" />
      </button>
      {open ? (
        <div className="currency-select-panel" data-testid={`${testId}-panel`}>
          <CurrencySearch
            searchRef={list.searchRef}
            listId={listId}
            activeId={options.length > 0 ? optionId(active) : undefined}
            query={list.query}
            testId={testId}
            onSearch={list.search}
            onKeyDown={onSearchKey}
          />
          <CurrencyOptions
            id={listId}
            labelId={labelId}
            listRef={list.listRef}
            options={options}
            value={value}
            active={active}
            optionId={optionId}
            amounts={amounts}
            testId={testId}
            onHover={list.setActive}
            onPick={pick}
          />
        </div>
      ) : null}
      <FieldMessage id={messageId} error={error} hint={hint} />
    </div>
  );
}

interface CurrencyOptionsProps {
  id: string;
  labelId: string;
  listRef: RefObject<HTMLDivElement | null>;
  options: readonly string[];
  value: string;
  active: number;
  optionId: (index: number) => string;
  amounts: ReadonlyMap<string, string> | null | undefined;
  testId: string;
  onHover: (index: number) => void;
  onPick: (currency: string) => void;
}

/** The listbox of the currencies found, each with its name and, when given, its balance. */
function CurrencyOptions(props: CurrencyOptionsProps) {
  const { id, labelId, listRef, options, value, active, optionId, amounts, testId, onHover, onPick } = props;
  const { t } = useTranslation();
  return (
    <div className="currency-select-list" id={id} role="listbox" aria-labelledby={labelId} ref={listRef}>
      {options.length === 0 ? (
        <p className="currency-select-empty">{t('errors.noResultsFound')}</p>
      ) : (
        options.map((currency, index) => {
          const amount = amountText(amounts, currency);
          return (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the search box handles the keys (aria-activedescendant)
            <div
              key={currency}
              id={optionId(index)}
              data-index={index}
              role="option"
              aria-selected={currency === value}
              tabIndex={-1}
              className={clsx('currency-select-option', index === active && 'active')}
              data-testid={`${testId}-option-${currency}`}
              onMouseEnter={() => onHover(index)}
              onClick={() => onPick(currency)}
            >
              <CoinIcon symbol={currency} size={22} />
              <span className="currency-select-value">
                <span className="currency-select-code">{currency}</span>
                <span className="currency-select-name">{coinName(currency)}</span>
              </span>
              {amount !== null ? <span className="currency-select-amount tabular">{amount}</span> : null}
            </div>
          );
        })
      )}
    </div>
  );
}

interface CurrencySearchProps {
  searchRef: RefObject<HTMLInputElement | null>;
  listId: string;
  activeId: string | undefined;
  query: string;
  testId: string;
  onSearch: (text: string) => void;
  onKeyDown: (event: KeyboardEvent<HTMLInputElement>) => void;
}

/** The open list's search box: the combobox whose keys move through the options. */
function CurrencySearch({ searchRef, listId, activeId, query, testId, onSearch, onKeyDown }: CurrencySearchProps) {
  const { t } = useTranslation();
  return (
    <div className="currency-select-search">
      <Search size={15} aria-hidden="true" />
      <input
        ref={searchRef}
        className="currency-select-input"
        role="combobox"
        aria-label={t('wallet.payment.searchCurrency')}
        aria-expanded="true"
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={activeId}
        placeholder={t('wallet.payment.searchCurrency')}
        autoComplete="off"
        spellCheck={false}
        value={query}
        data-testid={`${testId}-search`}
        onChange={(event) => onSearch(event.target.value)}
        onKeyDown={onKeyDown}
      />
    </div>
  );
}
