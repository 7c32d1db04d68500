import { lazy, Suspense } from 'react';
import { Route, Switch, useLocation } from 'wouter';
import type { User } from '@/contracts/auth';
import { ErrorBoundary } from '@/web/components/error-boundary';
import { DelayedSpinner } from '@/web/components/loaders';
import { TooltipProvider } from '@/web/components/ui/tooltip';
import { ShellServices } from '@/web/features/shell-services/shell-services';
import { AREA_PATHS, AREAS } from './areas';
import { DETAIL_PAGES, SERVICE_PAGES } from './service-pages';
import { AppShell } from './shell/app-shell';

const DashboardPage = lazy(() => import('@/web/pages/dashboard'));
const AdminUsersPage = lazy(() => import('@/web/pages/admin-users'));
const AreaPage = lazy(() => import('@/web/pages/area-page'));
const NotFoundPage = lazy(() => import('@/web/pages/not-found'));
// The floating Finance AI Assistant (seed section 2); if its code cannot load, the page goes on without it.
const FinanceAssistant = lazy(() =>
  import('@/web/features/assistant/finance-assistant').catch(() => ({ default: () => null })),
);

/**
 * Areas not built yet show their placeholder page. An area whose path names a record
 * (`/crm/contacts/:id`) is left out: with no page behind it, no record exists to show, so any
 * id there is unknown and falls through to not-found instead of a page that seems to exist.
 */
const PLACEHOLDER_PATHS = AREA_PATHS.filter(
  (path) =>
    AREAS[path].access === 'signedIn' &&
    path !== '/' &&
    path !== '/admin/users' &&
    !SERVICE_PAGES[path] &&
    !path.includes(':'),
);

/** The signed-in area: the shell around every signed-in route of seed section 2. */
export default function SignedInApp({ user }: { user: User }) {
  const [location] = useLocation();
  return (
    <TooltipProvider delayDuration={700} skipDelayDuration={300}>
      <AppShell user={user}>
        <ErrorBoundary resetKey={location} fullScreen={false}>
          <Suspense fallback={<DelayedSpinner />}>
            <Switch>
              <Route path="/" component={DashboardPage} />
              <Route path="/admin/users" component={AdminUsersPage} />
              {DETAIL_PAGES.map(([path, Page]) => (
                <Route key={path} path={path} component={Page} />
              ))}
              {Object.entries(SERVICE_PAGES).map(([path, Page]) => (
                <Route key={path} path={path} component={Page} />
              ))}
              {PLACEHOLDER_PATHS.map((path) => (
                <Route key={path} path={path}>
                  <AreaPage area={AREAS[path]} />
                </Route>
              ))}
              <Route component={NotFoundPage} />
            </Switch>
          </Suspense>
        </ErrorBoundary>
      </AppShell>
      <ShellServices user={user} />
      <Suspense fallback={null}>
        <FinanceAssistant />
      </Suspense>
    </TooltipProvider>
  );
}
