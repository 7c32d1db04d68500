import type { Plan } from '@/contracts/plans';
import { Badge } from '@/web/components/ui/badge';
import { PLAN_STATUS_LABELS, PLAN_STATUS_VARIANTS } from './format';

export function PlanStatusBadge({ status, testId }: { status: Plan['status']; testId?: string }) {
  return (
    <Badge variant={PLAN_STATUS_VARIANTS[status]} data-testid={testId} data-status={status}>
      {PLAN_STATUS_LABELS[status]}
    </Badge>
  );
}
