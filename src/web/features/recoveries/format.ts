import type {
  BalanceTreatment,
  Components,
  RepossessionStatus,
  WriteOffStatus,
} from '@/contracts/recoveries';
import type { BadgeProps } from '@/web/components/ui/badge';

/** How repossessions and write-offs read on screen. */
export const REPOSSESSION_STATUS_LABELS: Record<RepossessionStatus, string> = {
  requested: 'Requested',
  approved: 'Approved',
  rejected: 'Rejected',
  recovered: 'Recovered',
  cancelled: 'Cancelled',
};

export const REPOSSESSION_STATUS_VARIANTS: Record<RepossessionStatus, BadgeProps['variant']> = {
  requested: 'warning',
  approved: 'secondary',
  rejected: 'outline',
  recovered: 'success',
  cancelled: 'outline',
};

export const WRITE_OFF_STATUS_LABELS: Record<WriteOffStatus, string> = {
  pending: 'Waiting for approval',
  approved: 'Approved',
  rejected: 'Rejected',
};

export const WRITE_OFF_STATUS_VARIANTS: Record<WriteOffStatus, BadgeProps['variant']> = {
  pending: 'warning',
  approved: 'destructive',
  rejected: 'outline',
};

export const BALANCE_LABELS: Record<BalanceTreatment, string> = {
  write_off: 'Write off what the device does not cover',
  receivable: 'Keep the rest as a receivable',
};

/** The parts of a balance, in the order they are shown. */
export const COMPONENT_PARTS: ReadonlyArray<readonly [keyof Omit<Components, 'total'>, string]> = [
  ['principal', 'Principal'],
  ['interest', 'Interest'],
  ['fees', 'Fees'],
  ['penalties', 'Penalties'],
];
