import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { ThemeProvider } from '@/web/app/theme';
import { TooltipProvider } from '@/web/components/ui/tooltip';
import { getQueryFn } from '@/web/lib/queryClient';

/** A fresh query client with the app's defaults, so tests never share cache. */
export function testQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'returnNull' }),
        retry: false,
        staleTime: Number.POSITIVE_INFINITY,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}

/** Renders with the app's providers and an in-memory location that records navigation. */
export function renderWithProviders(ui: ReactElement, { path = '/', client = testQueryClient() } = {}) {
  const location = memoryLocation({ path, record: true });
  const result = render(
    <QueryClientProvider client={client}>
      <ThemeProvider>
        <TooltipProvider>
          <Router hook={location.hook} searchHook={location.searchHook}>
            {ui}
          </Router>
        </TooltipProvider>
      </ThemeProvider>
    </QueryClientProvider>,
  );
  return { ...result, client, history: location.history, navigate: location.navigate };
}

/** A JSON Response. */
export function jsonResponse(body: unknown, status = 200, statusText = ''): Response {
  return new Response(JSON.stringify(body), {
    status,
    statusText,
    headers: { 'content-type': 'application/json' },
  });
}
