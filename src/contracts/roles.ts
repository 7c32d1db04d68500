/**
 * Staff roles and what each may do (PRODUCT.md section 1). Roles are cumulative: each role has
 * every permission of the roles before it. The owner flag passes every check.
 * Shared by the server (route guards) and the web app (which links to show).
 */
export const ROLES = ['viewer', 'agent', 'collector', 'finance', 'manager', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  viewer: 'Viewer',
  agent: 'Agent',
  collector: 'Collector',
  finance: 'Finance',
  manager: 'Manager',
  admin: 'Administrator',
};

/** The least role that holds each permission. Routes name a permission, never a role. */
export const PERMISSIONS = {
  'business.read': 'viewer',
  'customers.write': 'agent',
  'contracts.draft': 'agent',
  'payments.cash': 'agent',
  'crm.write': 'agent',
  /** The outbox: messages sent to customers, tokens among them (API.md "Messages"). */
  'messages.read': 'agent',
  'collections.work': 'collector',
  'messages.send': 'collector',
  'devices.requestLock': 'collector',
  'payments.manage': 'finance',
  'finance.read': 'finance',
  'finance.write': 'finance',
  'reports.run': 'finance',
  'treasury.read': 'finance',
  'contracts.approve': 'manager',
  /** Collections for managers: assignment, collectors' regions and caps, performance. */
  'collections.manage': 'manager',
  /** Approve, reject and record the recovery of repossessions; approve or reject write-offs (never one's own request). */
  'recoveries.approve': 'manager',
  'devices.control': 'manager',
  /** Manual override (PRODUCT.md "Device control"): give use to a unit in arrears, with a reason. */
  'devices.override': 'manager',
  /** Manual device commands (lock, unlock, token, release) and bulk lock or unlock, with a reason. */
  'devices.command': 'manager',
  /** Device catalogue and units: receive stock, import, status changes. */
  'inventory.write': 'manager',
  'plans.write': 'manager',
  'scenarios.run': 'manager',
  'eod.run': 'manager',
  'admin.users': 'admin',
  'admin.audit': 'admin',
  /** Background jobs: their runs and failures. */
  'admin.jobs': 'admin',
  'admin.integrations': 'admin',
  'admin.backup': 'admin',
  'admin.compliance': 'admin',
  'admin.settings': 'admin',
} as const satisfies Record<string, Role>;
export type Permission = keyof typeof PERMISSIONS;

export interface RoleHolder {
  role: Role;
  isOwner: boolean;
}

export function roleRank(role: Role): number {
  return ROLES.indexOf(role);
}

export function can(user: RoleHolder | null | undefined, permission: Permission): boolean {
  if (!user) return false;
  if (user.isOwner) return true;
  return roleRank(user.role) >= roleRank(PERMISSIONS[permission]);
}

/** The seed shows the Administration navigation group to admins and owners only. */
export function isAdmin(user: RoleHolder | null | undefined): boolean {
  return !!user && (user.isOwner || user.role === 'admin');
}
