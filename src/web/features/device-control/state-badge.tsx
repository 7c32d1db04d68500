import type { CommandState } from '@/contracts/devices';
import { Badge } from '@/web/components/ui/badge';
import { STATE_LABELS, STATE_VARIANTS } from './format';

export function CommandStateBadge({ state, testId }: { state: CommandState; testId?: string }) {
  return (
    <Badge variant={STATE_VARIANTS[state]} data-testid={testId} data-state={state}>
      {STATE_LABELS[state]}
    </Badge>
  );
}
