import { useQuery } from '@tanstack/react-query';
import { RotateCw } from 'lucide-react';
import { lazy, Suspense } from 'react';
import type { PortalMe } from '@/contracts/portal';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent } from '@/web/components/ui/card';
import { Skeleton } from '@/web/components/ui/skeleton';
import { PortalSignIn } from '@/web/features/portal/sign-in';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';

// The signed-in part brings zod (the typed client) and the money module: loaded after sign-in,
// so a phone's first visit downloads only the sign-in form (budget: 120 KB of JS).
const PortalHome = lazy(() => import('@/web/features/portal/portal-home'));

function Loading() {
  return (
    <div role="status" className="mx-auto flex w-full max-w-xl flex-col gap-4" data-testid="portal-loading">
      <span className="sr-only">Loading your account…</span>
      <Skeleton className="h-8 w-40" />
      <Skeleton className="h-72 w-full rounded-xl" />
    </div>
  );
}

/**
 * /customer (issue 16 §1): the customer portal, phone first. Signed out (the session answers
 * 401, which the default query function reads as null), the sign-in by phone and code; signed
 * in, the customer's own contracts. The session is read with the default query function, not
 * `api()`, to keep zod out of the first load; the signed-in part reads everything else through
 * `api()`, checked against the contract.
 */
export default function CustomerPortalPage() {
  const me = useQuery<PortalMe | null>({ queryKey: queryKeys.portal.me() });

  if (me.isPending) return <Loading />;
  if (me.isError)
    return (
      <Card className="mx-auto max-w-sm">
        <CardContent className="flex flex-col items-start gap-3 p-5">
          <p role="alert" className="text-sm">
            The portal could not load: {errorMessage(me.error)}
          </p>
          <Button variant="outline" onClick={() => void me.refetch()}>
            <RotateCw aria-hidden="true" />
            Try again
          </Button>
        </CardContent>
      </Card>
    );
  if (!me.data) return <PortalSignIn />;
  return (
    <Suspense fallback={<Loading />}>
      <PortalHome me={me.data} />
    </Suspense>
  );
}
