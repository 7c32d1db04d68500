import { ROLE_LABELS, type Role } from '@/contracts/roles';

/**
 * Pure navigation rules of the seed, kept free of React so they are easy to test.
 */

/**
 * Seed section 2: an item is active when its route equals the current path, or the current path
 * starts with the item's path; '/' matches only exactly.
 */
export function isActivePath(itemPath: string, currentPath: string): boolean {
  if (itemPath === '/') return currentPath === '/';
  return currentPath === itemPath || currentPath.startsWith(itemPath);
}

/** Seed "Profile menu": the first letter of the first name, else of the e-mail, else 'U'. */
export function avatarLetter(
  user: { firstName?: string | null; email?: string | null } | null | undefined,
): string {
  const source = user?.firstName?.trim() || user?.email?.trim() || '';
  return source ? source.charAt(0).toUpperCase() : 'U';
}

/** Full name for display, falling back to the e-mail when both names are empty. */
export function displayName(user: {
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
}): string {
  const name = [user.firstName, user.lastName]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  return name || user.email || 'User';
}

/** Stable test id of a navigation entry: `nav-contracts`, `nav-admin-users`, `nav-dashboard`... */
export function navTestId(path: string, prefix = 'nav'): string {
  const slug = path === '/' ? 'dashboard' : path.replace(/^\//, '').replace(/\//g, '-');
  return `${prefix}-${slug}`;
}

/** 'Owner · Administrator', 'Collector'... */
export function roleDescription(user: { role: Role; isOwner: boolean }): string {
  return user.isOwner ? `Owner · ${ROLE_LABELS[user.role]}` : ROLE_LABELS[user.role];
}
