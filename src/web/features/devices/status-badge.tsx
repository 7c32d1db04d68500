import type { DeviceStatus } from '@/contracts/devices';
import { Badge } from '@/web/components/ui/badge';
import { STATUS_LABELS, STATUS_VARIANTS } from './format';

export function DeviceStatusBadge({ status, testId }: { status: DeviceStatus; testId?: string }) {
  return (
    <Badge variant={STATUS_VARIANTS[status]} data-testid={testId} data-status={status}>
      {STATUS_LABELS[status]}
    </Badge>
  );
}
