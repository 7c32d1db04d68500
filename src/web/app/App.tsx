import { QueryClientProvider } from '@tanstack/react-query';
import { ErrorBoundary } from '@/web/components/error-boundary';
import { LazyToaster } from '@/web/components/lazy-toaster';
import { queryClient } from '@/web/lib/queryClient';
import { Router } from './router';
import { ThemeProvider } from './theme';

/**
 * Providers, error boundary and router. The Radix TooltipProvider (700 ms / 300 ms) wraps the
 * signed-in area only (signed-in-app.tsx): tooltips exist only there, and Radix Tooltip brings the
 * popper and floating-ui (~9 KB gzipped) that the sign-in page must not load.
 */
export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider>
        <ErrorBoundary>
          <Router />
        </ErrorBoundary>
        <LazyToaster />
      </ThemeProvider>
    </QueryClientProvider>
  );
}
