import type { ContractStatus } from '@/contracts/contracts';
import { Badge } from '@/web/components/ui/badge';
import { STATUS_VARIANTS, statusLabel } from './contract-rules';

/** A contract's status; a pending contract that a second person approved reads "Approved". */
export function ContractStatusBadge({
  status,
  approved = false,
  testId,
}: {
  status: ContractStatus;
  approved?: boolean;
  testId?: string;
}) {
  return (
    <Badge
      variant={status === 'pending_approval' && approved ? 'success' : STATUS_VARIANTS[status]}
      data-testid={testId}
      data-status={status}
    >
      {statusLabel(status, approved)}
    </Badge>
  );
}
