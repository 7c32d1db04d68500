import { FileText, UserRound } from 'lucide-react';
import { contractEndpoints } from '@/contracts/contracts';
import { customerEndpoints } from '@/contracts/customers';
import { api } from '@/web/lib/api';
import { STATUS_LABELS } from '../contracts/contract-rules';
import type { RemoteCommandSource } from './command-sources';

/** Records per group: the palette is for jumping to one record, the lists are for browsing. */
export const RECORD_RESULTS = 5;

/**
 * Customers and contracts found by the server's own list search (name, account or contract
 * number, phone however typed, device serial), so the palette finds exactly what the lists find
 * and a viewer sees the same masked phone numbers there.
 */
export const customersSource: RemoteCommandSource = {
  kind: 'remote',
  id: 'customers',
  label: 'Customers',
  minQueryLength: 2,
  search: async (query, context) => {
    const page = await api(customerEndpoints.list, { query: { q: query, pageSize: RECORD_RESULTS } });
    return page.items.map((customer) => ({
      id: `customer:${customer.id}`,
      label: customer.fullName,
      description: `${customer.accountNumber} · ${customer.phone}`,
      icon: UserRound,
      run: () => context.navigate(`/customers/${customer.id}`),
    }));
  },
};

export const contractsSource: RemoteCommandSource = {
  kind: 'remote',
  id: 'contracts',
  label: 'Contracts',
  minQueryLength: 2,
  search: async (query, context) => {
    const page = await api(contractEndpoints.list, { query: { q: query, pageSize: RECORD_RESULTS } });
    return page.items.map((contract) => ({
      id: `contract:${contract.id}`,
      label: contract.number,
      description: `${contract.customerName} · ${contract.deviceModel} · ${STATUS_LABELS[contract.status]}`,
      icon: FileText,
      run: () => context.navigate(`/contracts/${contract.id}`),
    }));
  },
};
