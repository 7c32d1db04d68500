import { useLocation, useSearch } from 'wouter';

/**
 * The open tab of a tabbed page, kept in `?tab=` so that links (the command palette, tutorials,
 * help) open a given tab and a reload keeps it. The first tab is the page's plain address: choosing
 * it drops `?tab=`. A switch replaces the history entry, so Back leaves the page rather than
 * stepping through its tabs, and it drops the other tab's list filters from the address.
 */
export function useTabParam<T extends string>(tabs: readonly [T, ...T[]]): [T, (next: string) => void] {
  const [location, navigate] = useLocation();
  const requested = new URLSearchParams(useSearch()).get('tab');
  const tab = tabs.find((candidate) => candidate === requested) ?? tabs[0];
  const open = (next: string) =>
    navigate(next === tabs[0] ? location : `${location}?tab=${next}`, { replace: true });
  return [tab, open];
}
