import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { type CalculatorField, type CalculatorInputs, inputsFromSearch, searchFromInputs } from './inputs';

/** How long the URL waits for typing to pause (browsers throttle rapid history updates). */
export const URL_WRITE_DELAY_MS = 250;

/**
 * The calculator's inputs, kept in the query string so a link reproduces the quote: read from the
 * URL on arrival (and when a different quote link is opened on the page), written back with
 * history.replaceState shortly after the user stops typing (no history entry per keystroke).
 */
export function useQuoteInputs(today: string) {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const [inputs, setInputs] = useState(() => inputsFromSearch(search, today));
  const seen = useRef(search);
  const edited = useRef(false);

  // A different query string arrived from outside (a link, back/forward): show that quote.
  useEffect(() => {
    if (search === seen.current) return;
    seen.current = search;
    edited.current = false;
    setInputs(inputsFromSearch(search, today));
  }, [search, today]);

  useEffect(() => {
    if (!edited.current) return;
    const next = searchFromInputs(inputs);
    if (next === seen.current) return;
    const timer = setTimeout(() => {
      seen.current = next;
      navigate(next ? `${location}?${next}` : location, { replace: true });
    }, URL_WRITE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [inputs, location, navigate]);

  const setField = useCallback(<K extends CalculatorField>(field: K, value: CalculatorInputs[K]) => {
    edited.current = true;
    setInputs((current) => (current[field] === value ? current : { ...current, [field]: value }));
  }, []);

  return { inputs, setField };
}
