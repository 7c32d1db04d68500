import { useQuery } from '@tanstack/react-query';
import { calculatorEndpoints } from '@/contracts/calculator';
import {
  type DemoContentAnswer,
  type DemoDevice,
  type DemoPlan,
  demoEndpoints,
  demoQuoteQuery,
} from '@/contracts/demo';
import { settingsEndpoints } from '@/contracts/settings';
import { api, endpointUrl } from '@/web/lib/api';
import { queryKeys } from '@/web/lib/query-keys';

/**
 * The demo's content: the published one (or the built-in default) for everyone; with a preview,
 * the editor's draft (the server refuses it to anyone but demo editors).
 */
export function useDemoContent(preview: boolean) {
  return useQuery({
    queryKey: queryKeys.demo.content(preview ? 'draft' : 'published'),
    queryFn: async (): Promise<DemoContentAnswer> => {
      if (!preview) return api(demoEndpoints.content);
      const draft = await api(demoEndpoints.draft);
      return { source: 'draft', version: draft.version, publishedAt: null, content: draft.content };
    },
  });
}

/** The organisation's currency, which the demo's prices are in. */
export function useCurrency() {
  return useQuery({
    queryKey: queryKeys.settings.publicOrganisation(),
    queryFn: () => api(settingsEndpoints.publicOrganisation),
    select: (organisation) => organisation.currency,
  });
}

/** The schedule of a device on a plan, from the public calculator (the contracts' engine). */
export function useDemoQuote(device: DemoDevice | undefined, plan: DemoPlan | undefined) {
  const query = device && plan ? demoQuoteQuery(device, plan) : null;
  return useQuery({
    queryKey: queryKeys.demo.quote(query ?? {}),
    queryFn: () => api(calculatorEndpoints.quote, { query: query ?? undefined }),
    enabled: !!query,
    staleTime: 5 * 60_000,
  });
}

/** Where an uploaded picture is served (public, cached by the browser). */
export function demoImageUrl(id: string): string {
  return endpointUrl(demoEndpoints.image, { params: { id } });
}
