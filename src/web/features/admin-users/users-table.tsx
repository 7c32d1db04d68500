import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Lock, Users } from 'lucide-react';
import { useState } from 'react';
import { type StaffUser, type StaffUserUpdateBody, type User, userEndpoints } from '@/contracts/auth';
import { ROLE_LABELS, ROLES, type Role } from '@/contracts/roles';
import { displayName } from '@/web/app/nav-rules';
import { ActionCell } from '@/web/components/action-table';
import { ConfirmDialog } from '@/web/components/confirm-dialog';
import { EmptyMessage } from '@/web/components/empty-message';
import { Badge } from '@/web/components/ui/badge';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/web/components/ui/select';
import { TableCell, TableRow } from '@/web/components/ui/table';
import { toast } from '@/web/hooks/use-toast';
import { api, apiOrNull } from '@/web/lib/api';
import { formatDateTime } from '@/web/lib/format';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';
import { WholeListTable } from './whole-list-table';

const HEADINGS = ['Name', 'Email', 'Role', 'Status', '2FA', 'Last sign-in'];

export function UsersTable({ me }: { me: User }) {
  const queryClient = useQueryClient();
  const users = useQuery({ queryKey: queryKeys.users.all(), queryFn: () => apiOrNull(userEndpoints.list) });
  const [confirming, setConfirming] = useState<StaffUser | null>(null);

  const update = useMutation({
    mutationFn: ({ id, body }: { id: string; body: StaffUserUpdateBody }) =>
      api(userEndpoints.update, { params: { id }, body }),
    onSuccess: (updated, { body }) => {
      queryClient.setQueryData<StaffUser[]>(queryKeys.users.all(), (list) =>
        list?.map((u) => (u.id === updated.id ? updated : u)),
      );
      const name = displayName(updated);
      toast({
        title: body.role ? 'Role changed' : updated.active ? 'User reactivated' : 'User deactivated',
        description: body.role
          ? `${name} is now ${ROLE_LABELS[updated.role]}.`
          : updated.active
            ? `${name} can sign in again.`
            : `${name} can no longer sign in.`,
      });
      setConfirming(null);
    },
    onError: (error) => {
      toast({ variant: 'destructive', title: 'Change not saved', description: errorMessage(error) });
      setConfirming(null);
    },
  });

  const pendingId = update.isPending ? update.variables?.id : undefined;
  return (
    <>
      <WholeListTable
        query={users}
        label="Users"
        empty={<EmptyMessage icon={Users}>No users yet.</EmptyMessage>}
        headings={HEADINGS}
        testId="table-users"
        row={(user) => {
          const self = user.id === me.id;
          const locked = user.isOwner || self;
          const name = displayName(user);
          return (
            <TableRow key={user.id} data-testid={`row-user-${user.id}`}>
              <TableCell>
                <span className="flex items-center gap-2 font-medium">
                  {name}
                  {user.isOwner && <Badge variant="secondary">Owner</Badge>}
                  {self && <Badge variant="outline">You</Badge>}
                </span>
              </TableCell>
              <TableCell className="text-muted-foreground">{user.email}</TableCell>
              <TableCell>
                {locked ? (
                  <span className="flex items-center gap-1.5" data-testid={`text-role-${user.id}`}>
                    {ROLE_LABELS[user.role]}
                    <Lock className="size-3.5 text-muted-foreground" aria-hidden="true" />
                    <span className="sr-only">
                      {user.isOwner ? '(the owner cannot be changed)' : '(you cannot change your own role)'}
                    </span>
                  </span>
                ) : (
                  <Select
                    value={user.role}
                    disabled={pendingId === user.id}
                    onValueChange={(role) => update.mutate({ id: user.id, body: { role: role as Role } })}
                  >
                    <SelectTrigger
                      className="h-8 w-40"
                      aria-label={`Role of ${name}`}
                      data-testid={`select-role-${user.id}`}
                    >
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {ROLES.map((role) => (
                        <SelectItem key={role} value={role} data-testid={`option-role-${role}`}>
                          {ROLE_LABELS[role]}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                )}
              </TableCell>
              <TableCell>
                {user.active ? (
                  <Badge variant="success" data-testid={`badge-status-${user.id}`}>
                    Active
                  </Badge>
                ) : (
                  <Badge variant="outline" data-testid={`badge-status-${user.id}`}>
                    Deactivated
                  </Badge>
                )}
              </TableCell>
              <TableCell>
                <span className={user.twoFactorEnabled ? 'font-medium' : 'text-muted-foreground'}>
                  {user.twoFactorEnabled ? 'On' : 'Off'}
                </span>
              </TableCell>
              <TableCell className="text-muted-foreground">
                {formatDateTime(user.lastLoginAt, 'Never')}
              </TableCell>
              <ActionCell
                show={!locked}
                disabled={pendingId === user.id}
                onClick={() => setConfirming(user)}
                data-testid={`button-toggle-active-${user.id}`}
              >
                {user.active ? 'Deactivate' : 'Reactivate'}
              </ActionCell>
            </TableRow>
          );
        }}
      />
      <ConfirmDialog
        open={!!confirming}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={
          confirming?.active ? `Deactivate ${confirming ? displayName(confirming) : ''}?` : 'Reactivate user?'
        }
        description={
          confirming?.active
            ? 'They are signed out everywhere and can no longer sign in. Their history stays. You can reactivate them later.'
            : `${confirming ? displayName(confirming) : 'This user'} will be able to sign in again with their existing password.`
        }
        confirmLabel={confirming?.active ? 'Deactivate' : 'Reactivate'}
        destructive={!!confirming?.active}
        pending={update.isPending}
        onConfirm={() =>
          confirming && update.mutate({ id: confirming.id, body: { active: !confirming.active } })
        }
      />
    </>
  );
}
