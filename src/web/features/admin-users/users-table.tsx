import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Lock, Users } from 'lucide-react';
import { useState } from 'react';
import { type StaffUser, type StaffUserUpdateBody, type User, userEndpoints } from '@/contracts/auth';
import { ROLE_LABELS, ROLES, type Role } from '@/contracts/roles';
import { displayName } from '@/web/app/nav-rules';
import { ConfirmDialog } from '@/web/components/confirm-dialog';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/web/components/ui/select';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { toast } from '@/web/hooks/use-toast';
import { api, apiOrNull } from '@/web/lib/api';
import { formatDateTime } from '@/web/lib/format';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';
import { TableSkeleton } from './table-skeleton';

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

  if (users.isLoading) return <TableSkeleton label="Loading users…" />;
  if (users.error) {
    return (
      <p role="alert" className="p-6 text-destructive text-sm">
        Users could not be loaded: {errorMessage(users.error)}
      </p>
    );
  }
  const list = users.data ?? [];
  if (list.length === 0) {
    return (
      <div className="flex flex-col items-center gap-2 p-10 text-center text-muted-foreground text-sm">
        <Users className="size-6" aria-hidden="true" />
        No users yet.
      </div>
    );
  }

  const pendingId = update.isPending ? update.variables?.id : undefined;
  return (
    <>
      <Table data-testid="table-users">
        <TableHeader>
          <TableRow>
            <TableHead>Name</TableHead>
            <TableHead>Email</TableHead>
            <TableHead>Role</TableHead>
            <TableHead>Status</TableHead>
            <TableHead>2FA</TableHead>
            <TableHead>Last sign-in</TableHead>
            <TableHead className="text-right">
              <span className="sr-only">Actions</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {list.map((user) => {
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
                <TableCell className="text-right">
                  {!locked && (
                    <Button
                      variant="outline"
                      size="sm"
                      disabled={pendingId === user.id}
                      onClick={() => setConfirming(user)}
                      data-testid={`button-toggle-active-${user.id}`}
                    >
                      {user.active ? 'Deactivate' : 'Reactivate'}
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
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
