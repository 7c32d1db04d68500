import { useQuery } from '@tanstack/react-query';
import { type User, userEndpoints } from '@/contracts/auth';
import { canHoldCustomers, customerEndpoints } from '@/contracts/customers';
import { can } from '@/contracts/roles';
import { settingsEndpoints } from '@/contracts/settings';
import { api, apiOrNull } from '@/web/lib/api';
import { queryKeys } from '@/web/lib/query-keys';

/**
 * Query keys all start with the endpoint (queryKeys.customers), so invalidating
 * ['/api/customers'] after a change refreshes every list page, profile, timeline and document list at once.
 */

export function useCustomer(id: string) {
  return useQuery({
    queryKey: queryKeys.customers.detail(id),
    queryFn: () => api(customerEndpoints.get, { params: { id } }),
    staleTime: 10_000,
  });
}

export function useDocuments(id: string) {
  return useQuery({
    queryKey: queryKeys.customers.documents(id),
    queryFn: () => api(customerEndpoints.documents, { params: { id } }),
    staleTime: 10_000,
  });
}

export function useTimeline(id: string) {
  return useQuery({
    queryKey: queryKeys.customers.timeline(id),
    queryFn: () => api(customerEndpoints.timeline, { params: { id } }),
    staleTime: 10_000,
  });
}

export function useOrganisation() {
  return useQuery({
    queryKey: queryKeys.settings.publicOrganisation(),
    queryFn: () => apiOrNull(settingsEndpoints.publicOrganisation),
  });
}

/** The tags customers carry, most used first. */
export function useCustomerTags() {
  return useQuery({
    queryKey: queryKeys.customers.tags(),
    queryFn: () => api(customerEndpoints.tags),
    staleTime: 60_000,
  });
}

export function useRegions() {
  return useQuery({
    queryKey: queryKeys.customers.regions(),
    queryFn: () => api(customerEndpoints.regions),
    staleTime: 60_000,
  });
}

/**
 * Staff who can be a customer's assigned agent (active, agents and above), for administrators
 * (the only ones who may list users); others get an empty list.
 */
export function useStaff(user: User | null) {
  const allowed = can(user, 'admin.users');
  return useQuery({
    queryKey: queryKeys.users.all(),
    queryFn: () => api(userEndpoints.list),
    enabled: allowed,
    staleTime: 60_000,
    select: (users) => users.filter(canHoldCustomers),
  });
}
