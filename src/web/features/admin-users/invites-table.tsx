import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MailPlus } from 'lucide-react';
import { useState } from 'react';
import { type Invite, inviteEndpoints } from '@/contracts/auth';
import { ROLE_LABELS } from '@/contracts/roles';
import { ActionCell } from '@/web/components/action-table';
import { ConfirmDialog } from '@/web/components/confirm-dialog';
import { EmptyMessage } from '@/web/components/empty-message';
import { Badge, type BadgeProps } from '@/web/components/ui/badge';
import { TableCell, TableRow } from '@/web/components/ui/table';
import { toast } from '@/web/hooks/use-toast';
import { api, apiOrNull } from '@/web/lib/api';
import { formatDay } from '@/web/lib/format';
import { invalidate } from '@/web/lib/mutation-effects';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';
import { WholeListTable } from './whole-list-table';

const STATUS: Record<Invite['status'], { label: string; variant: BadgeProps['variant'] }> = {
  open: { label: 'Open', variant: 'success' },
  used: { label: 'Used', variant: 'secondary' },
  expired: { label: 'Expired', variant: 'outline' },
  revoked: { label: 'Revoked', variant: 'destructive' },
};

const HEADINGS = ['Invited email', 'Role', 'Status', 'Created', 'Expires'];

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

  return (
    <>
      <WholeListTable
        query={invites}
        label="Invites"
        skeletonRows={3}
        empty={
          <EmptyMessage icon={MailPlus} testId="text-invites-empty">
            No invites yet. Create one above to add a colleague.
          </EmptyMessage>
        }
        headings={HEADINGS}
        testId="table-invites"
        row={(invite) => (
          <TableRow key={invite.id} data-testid={`row-invite-${invite.id}`}>
            <TableCell className={invite.email ? 'font-medium' : 'text-muted-foreground'}>
              {invite.email ?? 'Anyone with the link'}
            </TableCell>
            <TableCell>{ROLE_LABELS[invite.role]}</TableCell>
            <TableCell>
              <Badge variant={STATUS[invite.status].variant} data-testid={`badge-invite-status-${invite.id}`}>
                {STATUS[invite.status].label}
              </Badge>
            </TableCell>
            <TableCell className="text-muted-foreground">{formatDay(invite.createdAt)}</TableCell>
            <TableCell className="text-muted-foreground">{formatDay(invite.expiresAt)}</TableCell>
            <ActionCell
              show={invite.status === 'open'}
              onClick={() => setRevoking(invite)}
              data-testid={`button-revoke-${invite.id}`}
            >
              Revoke
            </ActionCell>
          </TableRow>
        )}
      />
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
