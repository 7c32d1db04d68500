import { useQuery } from '@tanstack/react-query';
import type { StaffUser, User } from '@/contracts/auth';
import type { Customer, CustomerEvent, KycDocument } from '@/contracts/customers';
import type { Page } from '@/contracts/lists';
import type { PublicOrganisation } from '@/contracts/profile';
import { can } from '@/contracts/roles';
import { queryKeys } from '@/web/lib/query-keys';
import { apiJson } from '@/web/lib/queryClient';

/**
 * Query keys all start with the endpoint, so invalidating ['/api/customers'] after a change
 * refreshes every list page, profile, timeline and document list at once.
 */
export const CUSTOMERS_ENDPOINT = '/api/customers';

export function useCustomer(id: string) {
  return useQuery({
    queryKey: queryKeys.customers.detail(id),
    queryFn: () => apiJson<Customer>('GET', `${CUSTOMERS_ENDPOINT}/${id}`),
    staleTime: 10_000,
  });
}

export function useDocuments(id: string) {
  return useQuery({
    queryKey: queryKeys.customers.documents(id),
    queryFn: () => apiJson<KycDocument[]>('GET', `${CUSTOMERS_ENDPOINT}/${id}/documents`),
    staleTime: 10_000,
  });
}

export function useTimeline(id: string) {
  return useQuery({
    queryKey: queryKeys.customers.timeline(id),
    queryFn: () => apiJson<CustomerEvent[]>('GET', `${CUSTOMERS_ENDPOINT}/${id}/timeline`),
    staleTime: 10_000,
  });
}

export function useOrganisation() {
  return useQuery<PublicOrganisation | null>({ queryKey: queryKeys.settings.publicOrganisation() });
}

export function useRegions() {
  return useQuery({
    queryKey: [CUSTOMERS_ENDPOINT, 'regions'],
    queryFn: () => apiJson<string[]>('GET', `${CUSTOMERS_ENDPOINT}/regions`),
    staleTime: 60_000,
  });
}

/** Active staff, for administrators (the only ones who may list users); others get an empty list. */
export function useStaff(user: User | null) {
  const allowed = can(user, 'admin.users');
  return useQuery({
    queryKey: ['/api/users'],
    queryFn: () => apiJson<StaffUser[]>('GET', '/api/users'),
    enabled: allowed,
    staleTime: 60_000,
    select: (users) => users.filter((staff) => staff.active),
  });
}

/** The id of the customer with this account number (to link to them from a duplicate refusal). */
export function useCustomerByAccount(accountNumber: string | null) {
  return useQuery({
    queryKey: [CUSTOMERS_ENDPOINT, 'by-account', accountNumber],
    queryFn: async () => {
      const page = await apiJson<Page<{ id: string; accountNumber: string }>>(
        'GET',
        `${CUSTOMERS_ENDPOINT}?q=${encodeURIComponent(accountNumber ?? '')}&pageSize=5`,
      );
      return page.items.find((item) => item.accountNumber === accountNumber)?.id ?? null;
    },
    enabled: !!accountNumber,
    staleTime: 60_000,
  });
}
