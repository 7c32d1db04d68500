import { useQuery } from '@tanstack/react-query';
import type { DeviceModel } from '@/contracts/devices';
import type { Page } from '@/contracts/lists';
import type { Organisation } from '@/contracts/profile';
import { queryKeys } from '@/web/lib/query-keys';
import { apiJson } from '@/web/lib/queryClient';

export const DEVICES_ENDPOINT = '/api/devices';
export const MODELS_ENDPOINT = '/api/device-models';

/** The whole catalogue (at most 200 models, the API's page limit), by name: pickers and filters. */
export function useAllDeviceModels(enabled = true) {
  const url = `${MODELS_ENDPOINT}?sort=name&order=asc&pageSize=200`;
  return useQuery({
    queryKey: [MODELS_ENDPOINT, 'all', url],
    queryFn: () => apiJson<Page<DeviceModel>>('GET', url),
    staleTime: 30_000,
    enabled,
  });
}

/** The organisation's currency and APR cap (any signed-in user may read them). */
export function useOrganisation() {
  return useQuery({
    queryKey: queryKeys.settings.organisation(),
    queryFn: () => apiJson<Organisation>('GET', queryKeys.settings.organisation()[0]),
    staleTime: 60_000,
  });
}
