import { lazy } from 'react';
import { Redirect, useLocation } from 'wouter';
import type { User } from '@/contracts/auth';
import { PublicLayout } from '@/web/components/public-layout';
import { findArea } from './areas';

const SignedInApp = lazy(() => import('./signed-in-app'));
const NotFoundPage = lazy(() => import('@/web/pages/not-found'));

/**
 * Everything but the signed-out-only and public pages (router.tsx), decided from the area table:
 * signed-in routes inside the shell, or a redirect to /login when signed out; anything else is
 * not found.
 */
export default function AppRoutes({ user }: { user: User | null }) {
  const [location] = useLocation();
  const match = findArea(location);

  if (user) return <SignedInApp user={user} />;
  if (match) return <Redirect to="/login" replace />;
  return (
    <PublicLayout>
      <NotFoundPage />
    </PublicLayout>
  );
}
