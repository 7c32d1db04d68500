import { type ComponentType, lazy } from 'react';
import { PublicLayout } from '@/web/components/public-layout';

/**
 * The pages open to everyone, signed in or not (seed section 2), each its own chunk. The router
 * matches them before anything else, so their first load carries neither the area table (every
 * area's icon) nor the signed-in shell: the customer portal must load in 120 KB on a phone.
 */
export const PUBLIC_PAGES: Record<string, ComponentType> = {
  '/calculator': lazy(() => import('@/web/pages/calculator')),
  '/customer': lazy(() => import('@/web/pages/customer-portal')),
  '/investor': lazy(() => import('@/web/pages/investor-portal')),
  '/demo': lazy(() => import('@/web/pages/demo')),
};

export default function PublicRoute({ path, signedIn }: { path: string; signedIn: boolean }) {
  const Page = PUBLIC_PAGES[path];
  return <PublicLayout signedIn={signedIn}>{Page ? <Page /> : null}</PublicLayout>;
}
