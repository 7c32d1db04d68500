import type { VariantProps } from 'class-variance-authority';
import type { DeviceStatus } from '@/contracts/devices';
import type { badgeVariants } from '@/web/components/ui/badge';

type BadgeVariant = NonNullable<VariantProps<typeof badgeVariants>['variant']>;

export const STATUS_LABELS: Record<DeviceStatus, string> = {
  in_stock: 'In stock',
  reserved: 'Reserved',
  assigned: 'Assigned',
  returned: 'Returned',
  repossessed: 'Repossessed',
  written_off: 'Written off',
  lost: 'Lost',
};

export const STATUS_VARIANTS: Record<DeviceStatus, BadgeVariant> = {
  in_stock: 'success',
  reserved: 'warning',
  assigned: 'default',
  returned: 'secondary',
  repossessed: 'secondary',
  written_off: 'outline',
  lost: 'destructive',
};

/** What each manual target means, for the status-change control. */
export const STATUS_HINTS: Partial<Record<DeviceStatus, string>> = {
  in_stock: 'Back on the shelf, ready for a new contract.',
  reserved: 'Held aside (for a customer or a check) so no contract takes it.',
  lost: 'Missing or stolen: its cost moves from inventory to inventory losses, and back if it is found.',
  written_off:
    'Final: the unit leaves the inventory for good (its cost goes to inventory losses) and cannot be changed again.',
};

export const CATEGORY_LABELS: Record<string, string> = {
  smartphone: 'Smartphone',
  solar_home_system: 'Solar home system',
  tv: 'TV',
  laptop: 'Laptop',
  tablet: 'Tablet',
  other: 'Other',
};

export const CONTROL_LABELS: Record<string, string> = {
  openpaygo: 'OpenPAYGO',
  lock_api: 'Lock API',
  none: 'None',
};

export const LOCK_LABELS: Record<string, string> = {
  unlocked: 'Unlocked',
  locked: 'Locked',
  unknown: 'Unknown',
};

export const TOKEN_TYPE_LABELS: Record<string, string> = {
  ADD_TIME: 'Add time',
  SET_TIME: 'Set time',
  DISABLE_PAYG: 'Disable PAYG',
  COUNTER_SYNC: 'Counter sync',
};

export const TOKEN_TYPE_HINTS: Record<string, string> = {
  ADD_TIME: 'Adds days to the time the device already has.',
  SET_TIME: 'Replaces the remaining time with this many days (0 locks the device).',
  DISABLE_PAYG: 'Unlocks the device for good: use it when the contract is paid off.',
  COUNTER_SYNC: 'Brings the device’s token counter in line without changing its time.',
};

export const labelOf = (labels: Record<string, string>, value: string) => labels[value] ?? value;

/** A 9-digit OpenPAYGO token in groups of three, as customers read it out. */
export function groupToken(token: string): string {
  return token.replace(/(\d{3})(?=\d)/g, '$1 ');
}
