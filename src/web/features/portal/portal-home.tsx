import { useQuery, useQueryClient } from '@tanstack/react-query';
import { RotateCw } from 'lucide-react';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { type PortalMe, portalEndpoints } from '@/contracts/portal';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent } from '@/web/components/ui/card';
import { Skeleton } from '@/web/components/ui/skeleton';
import { api } from '@/web/lib/api';
import { queryKeys } from '@/web/lib/query-keys';
import { apiError, errorMessage } from '@/web/lib/queryClient';
import { ContractCard } from './contract-card';

// Loaded when the customer opens them: most visits are "what do I owe, pay, unlock".
const PortalChat = lazy(() => import('./chat'));
const PortalPreferences = lazy(() => import('./preferences'));

/**
 * The signed-in customer's portal: their contracts, then chat and preferences. A chunk of its own
 * (with zod and the money module): the signed-out first load is the sign-in form alone.
 */
export default function PortalHome({ me }: { me: PortalMe }) {
  const queryClient = useQueryClient();
  const contracts = useQuery({
    queryKey: queryKeys.portal.contracts(),
    queryFn: () => api(portalEndpoints.contracts),
    staleTime: 30_000,
  });
  const [leaving, setLeaving] = useState(false);
  // The session ended (30 idle minutes on a shared phone): back to the sign-in form.
  const expired = apiError(contracts.error)?.status === 401;
  useEffect(() => {
    if (expired) void queryClient.invalidateQueries({ queryKey: queryKeys.portal.me() });
  }, [expired, queryClient]);

  async function signOut() {
    setLeaving(true);
    try {
      await api(portalEndpoints.logout);
    } finally {
      queryClient.removeQueries({ queryKey: queryKeys.portal.all() });
      await queryClient.invalidateQueries({ queryKey: queryKeys.portal.me() });
      setLeaving(false);
    }
  }

  let body: ReactNode;
  if (contracts.isPending) {
    body = (
      <div role="status" className="flex flex-col gap-4">
        <span className="sr-only">Loading your contracts…</span>
        <Skeleton className="h-72 w-full rounded-xl" />
      </div>
    );
  } else if (contracts.isError) {
    body = (
      <Card>
        <CardContent className="flex flex-col items-start gap-3 p-4">
          <p role="alert" className="text-sm">
            Your contracts could not be loaded: {errorMessage(contracts.error)}
          </p>
          <Button variant="outline" onClick={() => void contracts.refetch()}>
            <RotateCw aria-hidden="true" />
            Try again
          </Button>
        </CardContent>
      </Card>
    );
  } else if (!contracts.data.items.length) {
    body = (
      <Card>
        <CardContent className="p-4 text-sm" data-testid="text-no-contracts">
          You have no active contract with us at the moment.
        </CardContent>
      </Card>
    );
  } else {
    body = contracts.data.items.map((contract) => <ContractCard key={contract.id} contract={contract} />);
  }

  return (
    <div className="mx-auto flex w-full max-w-xl flex-col gap-4">
      <div className="flex items-center justify-between gap-2">
        <h1 className="font-semibold text-xl" data-testid="text-portal-greeting">
          Hello, {me.firstName}
        </h1>
        <Button
          variant="outline"
          size="sm"
          onClick={signOut}
          disabled={leaving}
          data-testid="button-portal-sign-out"
        >
          Sign out
        </Button>
      </div>
      {body}
      <LazySection title="Help and chat" testId="section-chat">
        <PortalChat />
      </LazySection>
      <LazySection title="Preferences" testId="section-preferences">
        <PortalPreferences me={me} />
      </LazySection>
    </div>
  );
}

/** A folded section whose content (a lazy chunk) is fetched the first time it is opened. */
function LazySection({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  const [opened, setOpened] = useState(false);
  return (
    <details
      className="rounded-xl border bg-card"
      onToggle={(event) => {
        if (event.currentTarget.open) setOpened(true);
      }}
      data-testid={testId}
    >
      <summary className="cursor-pointer select-none px-4 py-3 font-medium">{title}</summary>
      <div className="border-t p-4">
        {opened ? (
          <Suspense
            fallback={
              <p role="status" className="text-muted-foreground text-sm">
                Loading…
              </p>
            }
          >
            {children}
          </Suspense>
        ) : null}
      </div>
    </details>
  );
}
