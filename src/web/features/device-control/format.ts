import type { VariantProps } from 'class-variance-authority';
import type { AttemptOutcome } from '@/contracts/device-control';
import type { CommandKind, CommandState } from '@/contracts/devices';
import type { badgeVariants } from '@/web/components/ui/badge';

type BadgeVariant = NonNullable<VariantProps<typeof badgeVariants>['variant']>;

export const KIND_LABELS: Record<CommandKind, string> = {
  lock: 'Lock',
  unlock: 'Unlock',
  token: 'Token',
  release: 'Release',
};

export const STATE_LABELS: Record<CommandState, string> = {
  queued: 'Queued',
  sent: 'Sent',
  acknowledged: 'Acknowledged',
  failed: 'Failed',
};

export const STATE_VARIANTS: Record<CommandState, BadgeVariant> = {
  queued: 'secondary',
  sent: 'warning',
  acknowledged: 'success',
  failed: 'destructive',
};

export const OUTCOME_LABELS: Record<AttemptOutcome, string> = {
  pending: 'In flight',
  accepted: 'Accepted, awaiting acknowledgement',
  acknowledged: 'Acknowledged',
  failed: 'Failed',
  timeout: 'No answer in time',
};

export const PROVIDER_LABELS: Record<string, string> = {
  simulator: 'Simulator',
  lock_api: 'Lock API',
  openpaygo: 'OpenPAYGO',
};

export const SOURCE_LABELS: Record<string, string> = {
  payment: 'Payment',
  eod_run: 'Close of business',
  bulk: 'Bulk action',
};

/** What each manual command does, for the form. */
export const KIND_HINTS: Record<CommandKind, string> = {
  lock: 'The lock API locks the phone until an unlock follows.',
  unlock: 'The lock API unlocks the phone.',
  token: 'An OpenPAYGO code for the days given, sent to the customer and kept in the token history.',
  release: 'Unlocked for good: a permanent unlock, or a DISABLE_PAYG code for OpenPAYGO units.',
};
