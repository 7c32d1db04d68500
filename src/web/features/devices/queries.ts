import { useQuery } from '@tanstack/react-query';
import type { DeviceModel } from '@/contracts/devices';
import type { Page } from '@/contracts/lists';
import type { Organisation } from '@/contracts/profile';
import { apiJson } from '@/web/lib/queryClient';

export const DEVICES_ENDPOINT = '/api/devices';
export const MODELS_ENDPOINT = '/api/device-models';
export const ORGANISATION_KEY = ['/api/settings/organisation'] as const;

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
    queryKey: ORGANISATION_KEY,
    queryFn: () => apiJson<Organisation>('GET', ORGANISATION_KEY[0]),
    staleTime: 60_000,
  });
}
