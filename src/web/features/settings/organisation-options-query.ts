import { useQuery } from '@tanstack/react-query';
import type { OrganisationOptions } from '@/contracts/profile';
import { settingsEndpoints } from '@/contracts/settings';
import { apiOrNull } from '@/web/lib/api';
import { queryKeys } from '@/web/lib/query-keys';

/**
 * The option lists the organisation configures (arrears buckets...), as the server defines them:
 * filters offer these, never a copy of the defaults, so a changed setting is matched at once.
 */
export function useOrganisationOptions() {
  return useQuery({
    queryKey: queryKeys.settings.options(),
    queryFn: () => apiOrNull(settingsEndpoints.options),
  });
}

/** An option list as the list kit's filters take it: [value, label] pairs. */
export function optionPairs(options: OrganisationOptions[keyof OrganisationOptions] | undefined) {
  return (options ?? []).map(({ value, label }) => [value, label] as const);
}
