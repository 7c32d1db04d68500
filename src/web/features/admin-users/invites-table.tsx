import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MailPlus } from 'lucide-react';
import { useState } from 'react';
import { type Invite, inviteEndpoints } from '@/contracts/auth';
import { ROLE_LABELS } from '@/contracts/roles';
import { ConfirmDialog } from '@/web/components/confirm-dialog';
import { Badge, type BadgeProps } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { toast } from '@/web/hooks/use-toast';
import { api, apiOrNull } from '@/web/lib/api';
import { formatDay } from '@/web/lib/format';
import { invalidate } from '@/web/lib/mutation-effects';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';
import { TableSkeleton } from './table-skeleton';

const STATUS: Record<Invite['status'], { label: string; variant: BadgeProps['variant'] }> = {
  open: { label: 'Open', variant: 'success' },
  used: { label: 'Used', variant: 'secondary' },
  expired: { label: 'Expired', variant: 'outline' },
  revoked: { label: 'Revoked', variant: 'destructive' },
};

export function InvitesTable() {
  const queryClient = useQueryClient();
  const invites = useQuery({
    queryKey: queryKeys.users.invites(),
    queryFn: () => apiOrNull(inviteEndpoints.list),
  });
  const [revoking, setRevoking] = useState<Invite | null>(null);

  const revoke = useMutation({
    mutationFn: (id: string) => api(inviteEndpoints.revoke, { params: { id } }),
    onSuccess: (invite) => {
      queryClient.setQueryData<Invite[]>(queryKeys.users.invites(), (list) =>
        list?.map((i) => (i.id === invite.id ? invite : i)),
      );
      toast({ title: 'Invite revoked', description: 'The link no longer works.' });
      setRevoking(null);
    },
    onError: (error) => {
      toast({ variant: 'destructive', title: 'Invite not revoked', description: errorMessage(error) });
      setRevoking(null);
      void invalidate(queryClient, 'invitesChanged');
    },
  });

  if (invites.isLoading) return <TableSkeleton label="Loading invites…" rows={3} />;
  if (invites.error) {
    return (
      <p role="alert" className="p-6 text-destructive text-sm">
        Invites could not be loaded: {errorMessage(invites.error)}
      </p>
    );
  }
  const list = invites.data ?? [];
  if (list.length === 0) {
    return (
      <div
        className="flex flex-col items-center gap-2 p-10 text-center text-muted-foreground text-sm"
        data-testid="text-invites-empty"
      >
        <MailPlus className="size-6" aria-hidden="true" />
        No invites yet. Create one above to add a colleague.
      </div>
    );
  }

  return (
    <>
      <Table data-testid="table-invites">
        <TableHeader>
          <TableRow>
            <TableHead>Invited email</TableHead>
            <TableHead>Role</TableHead>
            <TableHead>Status</TableHead>
            <TableHead>Created</TableHead>
            <TableHead>Expires</TableHead>
            <TableHead className="text-right">
              <span className="sr-only">Actions</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {list.map((invite) => {
            const status = STATUS[invite.status];
            return (
              <TableRow key={invite.id} data-testid={`row-invite-${invite.id}`}>
                <TableCell className={invite.email ? 'font-medium' : 'text-muted-foreground'}>
                  {invite.email ?? 'Anyone with the link'}
                </TableCell>
                <TableCell>{ROLE_LABELS[invite.role]}</TableCell>
                <TableCell>
                  <Badge variant={status.variant} data-testid={`badge-invite-status-${invite.id}`}>
                    {status.label}
                  </Badge>
                </TableCell>
                <TableCell className="text-muted-foreground">{formatDay(invite.createdAt)}</TableCell>
                <TableCell className="text-muted-foreground">{formatDay(invite.expiresAt)}</TableCell>
                <TableCell className="text-right">
                  {invite.status === 'open' && (
                    <Button
                      variant="outline"
                      size="sm"
                      onClick={() => setRevoking(invite)}
                      data-testid={`button-revoke-${invite.id}`}
                    >
                      Revoke
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      <ConfirmDialog
        open={!!revoking}
        onOpenChange={(open) => !open && setRevoking(null)}
        title="Revoke this invite?"
        description={`The link for ${revoking?.email ?? 'anyone with the link'} stops working at once. You can create a new invite later.`}
        confirmLabel="Revoke invite"
        destructive
        pending={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate(revoking.id)}
      />
    </>
  );
}
