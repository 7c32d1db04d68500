import { bucketsFromBounds } from '@/domain';
import type { SelectOption } from '@/web/components/searchable-select';

/** Option lists for the organisation form, from the browser's own Intl data. */

function displayNames(type: 'currency' | 'region'): Intl.DisplayNames | null {
  try {
    return new Intl.DisplayNames(['en'], { type, fallback: 'none' });
  } catch {
    return null;
  }
}

export function timeZoneOptions(current?: string): SelectOption[] {
  let zones: string[] = [];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    zones = [];
  }
  const all = new Set(zones);
  all.add('UTC');
  if (current) all.add(current);
  return [...all].sort().map((zone) => ({ value: zone, label: zone.replace(/_/g, ' ') }));
}

export function currencyOptions(current?: string): SelectOption[] {
  const names = displayNames('currency');
  let codes: string[] = [];
  try {
    codes = Intl.supportedValuesOf('currency');
  } catch {
    codes = ['USD', 'EUR', 'GBP', 'KES', 'UGX', 'TZS', 'NGN', 'GHS', 'ZAR', 'RWF', 'ZMW', 'XOF', 'XAF'];
  }
  const all = new Set(codes);
  if (current) all.add(current);
  return [...all].sort().map((code) => {
    const name = names?.of(code);
    return { value: code, label: name && name !== code ? `${code} — ${name}` : code };
  });
}

/** Regions that have a name but are not ISO 3166-1 countries. */
const NOT_COUNTRIES = new Set(['AC', 'CP', 'DG', 'EA', 'EU', 'EZ', 'IC', 'QO', 'TA', 'UN', 'XA', 'XB', 'ZZ']);

export function countryOptions(current?: string): SelectOption[] {
  const names = displayNames('region');
  const options: SelectOption[] = [];
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  for (const first of letters) {
    for (const second of letters) {
      const code = first + second;
      if (NOT_COUNTRIES.has(code)) continue;
      const name = names?.of(code);
      if (name && name !== code) options.push({ value: code, label: `${name} (${code})` });
    }
  }
  if (current && !options.some((option) => option.value === current))
    options.push({ value: current, label: current });
  return options.sort((a, b) => a.label.localeCompare(b.label));
}

/** [1, 8, 31, 61, 91] -> Current, 1–7, 8–30, 31–60, 61–90, 91+ days past due. */
export function bucketLabels(bounds: readonly number[]): string[] {
  return bucketsFromBounds(bounds).map(({ label }) =>
    label === 'current' ? 'Current' : label.replace('-', '–'),
  );
}
