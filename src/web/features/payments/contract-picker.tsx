import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { type ContractRow, contractEndpoints } from '@/contracts/contracts';
import type { FieldControlProps } from '@/web/components/form-field';
import { SearchableSelect, type SelectOption } from '@/web/components/searchable-select';
import { api } from '@/web/lib/api';
import { queryKeys } from '@/web/lib/query-keys';

/** Waits until the value has stopped changing for `ms` (search boxes, the allocation preview). */
export function useDebounced<T>(value: T, ms = 300): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

const optionOf = (
  c: Pick<ContractRow, 'id' | 'number' | 'customerName' | 'customerPhone' | 'deviceSerial'>,
) => ({
  value: c.id,
  label: `${c.number} · ${c.customerName} · ${c.customerPhone} · ${c.deviceSerial}`,
});

/**
 * A contract chosen by number, customer name, phone or device serial: the contracts list's own
 * search (GET /api/contracts?q=), as the person types. `selected` names the current choice when
 * it is not among the matches (a contract given by the address).
 */
export function ContractPicker({
  control,
  value,
  onChange,
  selected,
  exclude,
  testId,
}: {
  control: FieldControlProps;
  value: string;
  onChange: (id: string) => void;
  selected?: SelectOption | null;
  /** A contract not to offer (a transfer's source). */
  exclude?: string;
  testId: string;
}) {
  const [query, setQuery] = useState('');
  const q = useDebounced(query.trim(), 250);
  const params = useMemo(
    () => ({ ...(q ? { q } : {}), pageSize: 20, sort: 'createdAt', order: 'desc' }) as const,
    [q],
  );
  const matches = useQuery({
    queryKey: [...queryKeys.contracts.lists(), 'picker', params],
    queryFn: () => api(contractEndpoints.list, { query: params }),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
  const options = useMemo(() => {
    const found = (matches.data?.items ?? [])
      .filter(
        (c) =>
          c.id !== exclude &&
          c.status !== 'draft' &&
          c.status !== 'pending_approval' &&
          c.status !== 'cancelled',
      )
      .map(optionOf);
    if (selected && !found.some((o) => o.value === selected.value)) return [selected, ...found];
    return found;
  }, [matches.data, selected, exclude]);
  return (
    <SearchableSelect
      {...control}
      value={value}
      onChange={onChange}
      options={options}
      searchLabel="Search contracts by number, customer name, phone or serial"
      placeholder="Find the contract…"
      onQueryChange={setQuery}
      loading={matches.isFetching}
      data-testid={testId}
    />
  );
}

export { optionOf as contractOption };
