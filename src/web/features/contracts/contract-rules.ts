import type { Contract, ContractStatus, DEPOSIT_CHANNELS } from '@/contracts/contracts';
import { can, type RoleHolder } from '@/contracts/roles';

/**
 * What the contract pages show, free of React: status labels and colours, and which actions a
 * person may take on a contract in its state (the server enforces the same rules; hiding a button
 * is a courtesy, never security).
 */

export const STATUS_LABELS: Record<ContractStatus, string> = {
  draft: 'Draft',
  pending_approval: 'Pending approval',
  active: 'Active',
  paid_off: 'Paid off',
  defaulted: 'Defaulted',
  written_off: 'Written off',
  returned: 'Returned',
  repossessed: 'Repossessed',
  cancelled: 'Cancelled',
};

export type BadgeVariant = 'default' | 'secondary' | 'destructive' | 'success' | 'warning' | 'outline';

export const STATUS_VARIANTS: Record<ContractStatus, BadgeVariant> = {
  draft: 'secondary',
  pending_approval: 'warning',
  active: 'default',
  paid_off: 'success',
  defaulted: 'destructive',
  written_off: 'destructive',
  returned: 'outline',
  repossessed: 'destructive',
  cancelled: 'outline',
};

/** "Pending approval", or "Approved" once a second person has approved a pending contract. */
export function statusLabel(status: ContractStatus, approved = false): string {
  if (status === 'pending_approval' && approved) return 'Approved';
  return STATUS_LABELS[status];
}

export const PER_PERIOD: Record<string, string> = { daily: '/ day', weekly: '/ week', monthly: '/ month' };

export const DEPOSIT_CHANNEL_LABELS: Readonly<Record<string, string>> = {
  cash: 'Cash',
  mobile_money: 'Mobile money',
  bank_transfer: 'Bank transfer',
  card: 'Card',
} satisfies Record<(typeof DEPOSIT_CHANNELS)[number], string>;

export const INSTALMENT_STATUS: Record<
  Contract['schedule'][number]['status'],
  { label: string; variant: BadgeVariant }
> = {
  paid: { label: 'Paid', variant: 'success' },
  partial: { label: 'Part paid', variant: 'warning' },
  overdue: { label: 'Overdue', variant: 'destructive' },
  due: { label: 'Due today', variant: 'warning' },
  upcoming: { label: 'Upcoming', variant: 'outline' },
};

export type ContractAction = 'submit' | 'approve' | 'return' | 'deposit' | 'activate' | 'cancel';

type ActionView = Pick<Contract, 'status' | 'approvedAt' | 'deposit' | 'depositReceived'>;

/**
 * The actions offered for a contract's state and the person's permissions, in the order a
 * contract moves through them:
 * - submit: a draft, by anyone who drafts contracts;
 * - approve / return: pending approval and not yet approved, by approvers. The maker is offered
 *   Approve too, and the server's maker-checker refusal is shown (a manager may not know who made it);
 * - deposit: before activation while part of the deposit is missing, by anyone who takes cash;
 * - activate: pending approval once approved, by device controllers (managers: activation issues
 *   the device's first token); unmet conditions are refused by the server with a
 *   message each, which the page shows;
 * - cancel: before activation.
 */
export function contractActions(contract: ActionView, user: RoleHolder | null | undefined): ContractAction[] {
  const actions: ContractAction[] = [];
  const open = contract.status === 'draft' || contract.status === 'pending_approval';
  const pending = contract.status === 'pending_approval';
  if (contract.status === 'draft' && can(user, 'contracts.draft')) actions.push('submit');
  if (pending && !contract.approvedAt && can(user, 'contracts.approve')) actions.push('approve', 'return');
  if (open && contract.depositReceived < contract.deposit && can(user, 'payments.cash'))
    actions.push('deposit');
  if (pending && contract.approvedAt && can(user, 'devices.control')) actions.push('activate');
  if (open && can(user, 'contracts.draft')) actions.push('cancel');
  return actions;
}

/** Whoever created or submitted the contract cannot approve it (maker-checker). */
export function isMaker(
  contract: Pick<Contract, 'createdBy' | 'submittedBy'>,
  userId: string | undefined,
): boolean {
  return !!userId && (contract.createdBy?.id === userId || contract.submittedBy?.id === userId);
}

/** A 9-digit OpenPAYGO token in groups of three, as keypads show it: "123 456 789". */
export function groupToken(token: string): string {
  return token.replace(/\s+/g, '').replace(/(\d{3})(?=\d)/g, '$1 ');
}
