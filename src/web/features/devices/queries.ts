import { useQuery } from '@tanstack/react-query';
import { deviceModelEndpoints } from '@/contracts/devices';
import { settingsEndpoints } from '@/contracts/settings';
import { api, endpointUrl } from '@/web/lib/api';
import { queryKeys } from '@/web/lib/query-keys';

/** The whole catalogue (at most 200 models, the API's page limit), by name: pickers and filters. */
export function useAllDeviceModels(enabled = true) {
  const query = { sort: 'name', order: 'asc', pageSize: 200 } as const;
  return useQuery({
    queryKey: queryKeys.deviceModels.catalogue(endpointUrl(deviceModelEndpoints.list, { query })),
    queryFn: () => api(deviceModelEndpoints.list, { query }),
    staleTime: 30_000,
    enabled,
  });
}

/** The organisation's currency and APR cap (any signed-in user may read them). */
export function useOrganisation() {
  return useQuery({
    queryKey: queryKeys.settings.organisation(),
    queryFn: () => api(settingsEndpoints.organisation),
    staleTime: 60_000,
  });
}
