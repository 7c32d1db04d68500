import { BadgeCheck, CircleDashed, Clock, ShieldAlert } from 'lucide-react';
import type { KycStatus } from '@/contracts/customers';
import { Badge } from '@/web/components/ui/badge';
import {
  DOCUMENT_STATUS_LABELS,
  DOCUMENT_STATUS_VARIANTS,
  GRADE_VARIANTS,
  KYC_STATUS_LABELS,
  KYC_STATUS_VARIANTS,
} from './format';

const KYC_ICONS = {
  not_started: CircleDashed,
  pending: Clock,
  verified: BadgeCheck,
  rejected: ShieldAlert,
} as const;

export function KycBadge({ status, testId }: { status: KycStatus; testId?: string }) {
  const Icon = KYC_ICONS[status];
  return (
    <Badge variant={KYC_STATUS_VARIANTS[status]} data-testid={testId} data-status={status}>
      <Icon aria-hidden="true" />
      {KYC_STATUS_LABELS[status]}
    </Badge>
  );
}

export function DocumentStatusBadge({ status, testId }: { status: string; testId?: string }) {
  return (
    <Badge variant={DOCUMENT_STATUS_VARIANTS[status] ?? 'outline'} data-testid={testId} data-status={status}>
      {DOCUMENT_STATUS_LABELS[status] ?? status}
    </Badge>
  );
}

/** The risk grade with the score beside it; a dash before the customer was scored. */
export function RiskGrade({
  grade,
  score,
  testId,
}: {
  grade: string | null;
  score: number | null;
  testId?: string;
}) {
  if (!grade) return <span className="text-muted-foreground">—</span>;
  return (
    <span className="inline-flex items-center gap-1.5 whitespace-nowrap" data-testid={testId}>
      <Badge variant={GRADE_VARIANTS[grade] ?? 'outline'}>
        <span className="sr-only">Grade </span>
        {grade}
      </Badge>
      {score !== null && (
        <span className="text-muted-foreground text-xs tabular-nums">
          <span className="sr-only">, score </span>
          {score}
        </span>
      )}
    </span>
  );
}
