import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { customerEndpoints } from '@/contracts/customers';
import type { FieldControlProps } from '@/web/components/form-field';
import { SearchableSelect, type SelectOption } from '@/web/components/searchable-select';
import { useDebounced } from '@/web/features/payments/contract-picker';
import { api } from '@/web/lib/api';
import { queryKeys } from '@/web/lib/query-keys';

/** A customer chosen by name, phone or account number: the customers list's own search, as one types. */
export function CustomerPicker({
  control,
  value,
  onChange,
  testId,
}: {
  control: FieldControlProps;
  value: string;
  onChange: (id: string, label: string) => void;
  testId: string;
}) {
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState<SelectOption | null>(null);
  const q = useDebounced(query.trim(), 250);
  const params = useMemo(() => ({ ...(q ? { q } : {}), pageSize: 20 }) as const, [q]);
  const matches = useQuery({
    queryKey: [...queryKeys.customers.all(), 'picker', params],
    queryFn: () => api(customerEndpoints.list, { query: params }),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
  const options = useMemo(() => {
    const found = (matches.data?.items ?? []).map((c) => ({
      value: c.id,
      label: `${c.fullName} · ${c.phone} · ${c.accountNumber}`,
    }));
    if (chosen && !found.some((o) => o.value === chosen.value)) return [chosen, ...found];
    return found;
  }, [matches.data, chosen]);
  return (
    <SearchableSelect
      {...control}
      value={value}
      onChange={(id) => {
        const option = options.find((o) => o.value === id) ?? null;
        setChosen(option);
        onChange(id, option?.label ?? '');
      }}
      options={options}
      searchLabel="Search customers by name, phone or account number"
      placeholder="Find a customer…"
      onQueryChange={setQuery}
      loading={matches.isFetching}
      data-testid={testId}
    />
  );
}
