import { lazy, type ReactNode, Suspense } from 'react';
import { Redirect, useLocation } from 'wouter';
import { FullScreenLoader } from '@/web/components/loaders';
import { useAuth } from '@/web/hooks/use-auth';
import { publicPathOf } from './public-paths';

// Every page is loaded on demand; the signed-out pages never pull in the signed-in shell.
const LandingPage = lazy(() => import('@/web/pages/landing'));
const AdminLoginPage = lazy(() => import('@/web/pages/admin-login'));
const RegisterPage = lazy(() => import('@/web/pages/register'));
const AppRoutes = lazy(() => import('./app-routes'));
const PublicRoute = lazy(() => import('./public-routes'));

/** Seed section 2: routes only for signed-out visitors; a signed-in user is sent to the dashboard. */
export const SIGNED_OUT_ONLY = ['/', '/login', '/admin-login', '/register'] as const;

export function Router() {
  const { user, isLoading } = useAuth();
  const [location] = useLocation();

  if (isLoading) return <FullScreenLoader label="Verifying authentication..." />;

  let page: ReactNode;
  const publicPath = publicPathOf(location);
  if (publicPath) page = <PublicRoute path={publicPath} signedIn={!!user} />;
  else if (!user && (location === '/' || location === '/login')) page = <LandingPage />;
  else if (!user && location === '/admin-login') page = <AdminLoginPage />;
  else if (!user && location === '/register') page = <RegisterPage />;
  else if (user && location !== '/' && (SIGNED_OUT_ONLY as readonly string[]).includes(location))
    page = <Redirect to="/" replace />;
  // Public areas, the signed-in app, the redirect of protected routes to /login, and not-found.
  else page = <AppRoutes user={user} />;

  return <Suspense fallback={<FullScreenLoader label="Loading..." />}>{page}</Suspense>;
}
