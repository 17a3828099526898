import { useCallback, useState } from 'react';
import { addToSearchHistory, readSearchHistory, writeSearchHistory } from './search-history.ts';

/** The search history, read from local storage once, with a function that records a query. */
export function useSearchHistory(): [history: readonly string[], record: (query: string) => void] {
  const [history, setHistory] = useState<string[]>(readSearchHistory);
  const record = useCallback(
    (query: string) => {
      const next = addToSearchHistory(history, query);
      writeSearchHistory(next);
      setHistory(next);
    },
    [history],
  );
  return [history, record];
}
