import { type ComponentType, lazy } from 'react';
import { Redirect, useLocation } from 'wouter';
import type { User } from '@/contracts/auth';
import { PublicLayout } from '@/web/components/public-layout';
import { findArea } from './areas';

const SignedInApp = lazy(() => import('./signed-in-app'));
const AreaPage = lazy(() => import('@/web/pages/area-page'));
/** The public areas that are built; the others show their area page. Each its own chunk. */
const PUBLIC_PAGES: Record<string, ComponentType> = {
  '/calculator': lazy(() => import('@/web/pages/calculator')),
  '/customer': lazy(() => import('@/web/pages/customer-portal')),
  '/investor': lazy(() => import('@/web/pages/investor-portal')),
  '/demo': lazy(() => import('@/web/pages/demo')),
};
const NotFoundPage = lazy(() => import('@/web/pages/not-found'));

/**
 * Everything but the signed-out-only pages, decided from the area table:
 * public areas for everyone; signed-in routes inside the shell, or a redirect to /login when
 * signed out; anything else is not found.
 */
export default function AppRoutes({ user }: { user: User | null }) {
  const [location] = useLocation();
  const match = findArea(location);

  if (match?.area.access === 'public') {
    const Page = PUBLIC_PAGES[match.path];
    return <PublicLayout signedIn={!!user}>{Page ? <Page /> : <AreaPage area={match.area} />}</PublicLayout>;
  }
  if (user) return <SignedInApp user={user} />;
  if (match) return <Redirect to="/login" replace />;
  return (
    <PublicLayout>
      <NotFoundPage />
    </PublicLayout>
  );
}
