import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import type { ListEndpoint, ListQuerySchema } from '@/contracts/lists';
import { SearchableSelect, type SelectOption } from '@/web/components/searchable-select';
import { api } from '@/web/lib/api';

interface ServerPickerProps<T> {
  id: string;
  /** The list endpoint searched... */
  endpoint: ListEndpoint<ListQuerySchema, T>;
  /** ...with its fixed filters (`{ status: 'in_stock' }`). */
  filters?: Record<string, string>;
  /** The current choice as shown (it may not be among the latest search's matches). */
  selected: SelectOption | null;
  onSelect: (item: T) => void;
  itemId: (item: T) => string;
  itemLabel: (item: T) => string;
  searchLabel: string;
  placeholder: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string | undefined;
  'data-testid'?: string;
}

const PAGE = 20;

/**
 * SearchableSelect over a list endpoint: what is typed is searched on the server (250 ms after
 * typing stops), so a book of any size can be picked from; the choice stays shown between searches.
 */
export function ServerPicker<T>({
  id,
  endpoint,
  filters,
  selected,
  onSelect,
  itemId,
  itemLabel,
  searchLabel,
  placeholder,
  'aria-invalid': invalid,
  'aria-describedby': describedBy,
  'data-testid': testId,
}: ServerPickerProps<T>) {
  const [query, setQuery] = useState('');
  const [debounced, setDebounced] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(query.trim()), 250);
    return () => clearTimeout(timer);
  }, [query]);

  const search = { ...filters, ...(debounced ? { q: debounced } : {}), pageSize: String(PAGE) };
  const found = useQuery({
    queryKey: [endpoint.path, 'picker', search],
    queryFn: () => api(endpoint, { query: search }),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });

  const items = found.data?.items;
  const options = useMemo<SelectOption[]>(() => {
    const list = (items ?? []).map((item) => ({ value: itemId(item), label: itemLabel(item) }));
    if (selected && !list.some((option) => option.value === selected.value)) list.unshift(selected);
    return list;
  }, [items, selected, itemId, itemLabel]);

  return (
    <SearchableSelect
      id={id}
      value={selected?.value ?? ''}
      onChange={(value) => {
        const item = items?.find((candidate) => itemId(candidate) === value);
        if (item) onSelect(item);
      }}
      options={options}
      searchLabel={searchLabel}
      placeholder={placeholder}
      onQueryChange={setQuery}
      loading={found.isFetching}
      aria-invalid={invalid}
      aria-describedby={describedBy}
      data-testid={testId}
    />
  );
}
