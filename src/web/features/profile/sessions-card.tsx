import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { formatDistanceToNow } from 'date-fns';
import { LogOut, Monitor, RotateCw, Smartphone } from 'lucide-react';
import { useState } from 'react';
import { profileEndpoints } from '@/contracts/profile';
import { ConfirmDialog } from '@/web/components/confirm-dialog';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Skeleton } from '@/web/components/ui/skeleton';
import { toast } from '@/web/hooks/use-toast';
import { api, apiOrNull } from '@/web/lib/api';
import { formatDateTime } from '@/web/lib/format';
import { invalidate } from '@/web/lib/mutation-effects';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';
import { describeUserAgent, deviceLabel } from './user-agent';

function lastSeen(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? 'unknown' : formatDistanceToNow(date, { addSuffix: true });
}

/** The user's own sessions, this device marked, and signing out every other one. */
export function SessionsCard() {
  const queryClient = useQueryClient();
  const sessions = useQuery({
    queryKey: queryKeys.profile.sessions(),
    queryFn: () => apiOrNull(profileEndpoints.sessions),
    staleTime: 0,
  });
  const [confirming, setConfirming] = useState(false);

  const revoke = useMutation({
    mutationFn: () => api(profileEndpoints.revokeOtherSessions),
    onSuccess: ({ revoked }) => {
      toast({
        title: 'Other sessions signed out',
        description:
          revoked === 0
            ? 'There were no other sessions.'
            : `${revoked} other ${revoked === 1 ? 'session was' : 'sessions were'} signed out.`,
      });
      setConfirming(false);
    },
    onError: (error) => {
      toast({ variant: 'destructive', title: 'Sessions not signed out', description: errorMessage(error) });
      setConfirming(false);
    },
    onSettled: () => invalidate(queryClient, 'sessionsChanged'),
  });

  const list = sessions.data ?? [];
  const others = list.filter((session) => !session.current).length;

  return (
    <Card data-testid="card-sessions">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4 space-y-0">
        <div className="grid grid-cols-1 min-w-64 flex-1 gap-1.5">
          <CardTitle>Signed-in sessions</CardTitle>
          <CardDescription>
            Every browser and device signed in to your account. Sign the others out if you do not recognise
            one, or after using a shared computer.
          </CardDescription>
        </div>
        <Button
          variant="outline"
          disabled={others === 0 || revoke.isPending}
          onClick={() => setConfirming(true)}
          data-testid="button-revoke-other-sessions"
        >
          <LogOut aria-hidden="true" />
          Sign out other sessions
        </Button>
      </CardHeader>
      <CardContent>
        {sessions.isLoading ? (
          <div role="status" className="grid grid-cols-1 gap-2">
            <span className="sr-only">Loading sessions…</span>
            <Skeleton className="h-14 w-full" />
            <Skeleton className="h-14 w-full" />
          </div>
        ) : sessions.error ? (
          <div role="alert" className="grid grid-cols-1 justify-items-start gap-2 text-sm">
            <p className="text-destructive">Sessions could not be loaded: {errorMessage(sessions.error)}</p>
            <Button variant="outline" size="sm" onClick={() => void sessions.refetch()}>
              <RotateCw aria-hidden="true" />
              Try again
            </Button>
          </div>
        ) : (
          <ul className="divide-y rounded-lg border" data-testid="list-sessions">
            {list.map((session) => {
              const Icon = describeUserAgent(session.userAgent).mobile ? Smartphone : Monitor;
              return (
                <li
                  key={session.id}
                  className="flex items-start gap-3 px-4 py-3"
                  data-testid={`row-session-${session.id}`}
                >
                  <Icon className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
                  <div className="min-w-0 flex-1">
                    <p className="flex flex-wrap items-center gap-2 font-medium text-sm">
                      {deviceLabel(session.userAgent)}
                      {session.current && (
                        <Badge variant="success" data-testid="badge-this-device">
                          This device
                        </Badge>
                      )}
                    </p>
                    <p className="mt-0.5 text-muted-foreground text-xs">
                      {session.ip ?? 'Unknown address'} · last active {lastSeen(session.lastSeenAt)} · signed
                      in {formatDateTime(session.createdAt)}
                    </p>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Sign out other sessions?"
        description={`${others} other ${others === 1 ? 'session' : 'sessions'} will be signed out at once and must sign in again. This browser stays signed in.`}
        confirmLabel="Sign out other sessions"
        destructive
        pending={revoke.isPending}
        onConfirm={() => revoke.mutate()}
      />
    </Card>
  );
}
