import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import { type InvestorCode, investorEndpoints } from '@/contracts/investor';
import { ActionCell } from '@/web/components/action-table';
import { ConfirmDialog } from '@/web/components/confirm-dialog';
import { EmptyMessage } from '@/web/components/empty-message';
import { Badge, type BadgeProps } from '@/web/components/ui/badge';
import { TableCell, TableRow } from '@/web/components/ui/table';
import { WholeListTable } from '@/web/features/admin-users/whole-list-table';
import { toast } from '@/web/hooks/use-toast';
import { api, apiOrNull } from '@/web/lib/api';
import { formatBusinessDate, formatDateTime } from '@/web/lib/format';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';
import { scopeLabel } from './scope-label';

const STATUS: Record<InvestorCode['status'], { label: string; variant: BadgeProps['variant'] }> = {
  active: { label: 'Active', variant: 'success' },
  expired: { label: 'Expired', variant: 'outline' },
  revoked: { label: 'Revoked', variant: 'destructive' },
};

const HEADINGS = ['Label', 'Code ends', 'Shows', 'Status', 'Works until', 'Last used', 'Uses'];

/** The codes issued, newest first, with their status and use; an active one can be revoked. */
export function CodesTable() {
  const queryClient = useQueryClient();
  const codes = useQuery({
    queryKey: queryKeys.investor.codes(),
    queryFn: () => apiOrNull(investorEndpoints.codes),
    select: (answer) => answer?.items ?? null,
  });
  const [revoking, setRevoking] = useState<InvestorCode | null>(null);

  const revoke = useMutation({
    mutationFn: (id: string) => api(investorEndpoints.revoke, { params: { id } }),
    onSuccess: (code) => {
      queryClient.setQueryData<{ items: InvestorCode[] }>(queryKeys.investor.codes(), (list) =>
        list ? { items: list.items.map((c) => (c.id === code.id ? code : c)) } : list,
      );
      toast({ title: 'Code revoked', description: 'It no longer works, and its sessions have ended.' });
      setRevoking(null);
    },
    onError: (error) => {
      toast({ variant: 'destructive', title: 'Code not revoked', description: errorMessage(error) });
      setRevoking(null);
      void queryClient.invalidateQueries({ queryKey: queryKeys.investor.codes() });
    },
  });

  return (
    <>
      <WholeListTable
        query={codes}
        label="Investor codes"
        skeletonRows={3}
        empty={
          <EmptyMessage icon={KeyRound} testId="text-investor-codes-empty">
            No investor codes yet. Issue one above for an investor or a fund.
          </EmptyMessage>
        }
        headings={HEADINGS}
        testId="table-investor-codes"
        row={(code) => (
          <TableRow key={code.id} data-testid={`row-investor-code-${code.id}`}>
            <TableCell className="font-medium">{code.label}</TableCell>
            <TableCell className="font-mono text-muted-foreground">…{code.hint}</TableCell>
            <TableCell>{scopeLabel(code.scope)}</TableCell>
            <TableCell>
              <Badge
                variant={STATUS[code.status].variant}
                data-testid={`badge-investor-code-status-${code.id}`}
              >
                {STATUS[code.status].label}
              </Badge>
            </TableCell>
            <TableCell className="text-muted-foreground">{formatBusinessDate(code.expiresOn)}</TableCell>
            <TableCell className="text-muted-foreground">
              {formatDateTime(code.lastUsedAt, 'Never')}
            </TableCell>
            <TableCell className="tabular-nums">{code.useCount}</TableCell>
            <ActionCell
              show={code.status === 'active'}
              onClick={() => setRevoking(code)}
              data-testid={`button-revoke-investor-code-${code.id}`}
            >
              Revoke
            </ActionCell>
          </TableRow>
        )}
      />
      <ConfirmDialog
        open={!!revoking}
        onOpenChange={(open) => !open && setRevoking(null)}
        title="Revoke this investor code?"
        description={`The code for ${revoking?.label ?? ''} stops working at once and anyone signed in with it is signed out. Issue a new code if they still need access.`}
        confirmLabel="Revoke code"
        destructive
        pending={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate(revoking.id)}
      />
    </>
  );
}
