import type { LucideIcon } from 'lucide-react';
import { AREAS, type AreaPath } from './areas';

export interface NavItem {
  path: AreaPath;
  label: string;
  icon: LucideIcon;
}

function item(path: AreaPath, label?: string): NavItem {
  const area = AREAS[path];
  return { path, label: label ?? area.title, icon: area.icon };
}

/** Seed section 2, "Navigation layout". Names and icons come from the area table. */
export const DESKTOP_LINKS: NavItem[] = [
  item('/'),
  item('/contracts'),
  item('/collections'),
  item('/crm'),
  item('/communications'),
  item('/analytics'),
];

export const MOBILE_LINKS: NavItem[] = [
  item('/', 'Home'),
  item('/contracts'),
  item('/collections'),
  item('/crm'),
];

export const TOOLS: NavItem[] = [
  item('/help-tutorial'),
  item('/reports'),
  item('/payment-processing'),
  item('/ai-customer-service'),
  item('/whatsapp-test'),
  item('/risk'),
  item('/finance'),
  item('/scenario-analysis'),
];

export const ADMINISTRATION: NavItem[] = [
  item('/customers'),
  item('/devices'),
  item('/device-control'),
  item('/settings'),
  item('/admin/users'),
  item('/admin/investor-codes'),
];

export const MOBILE_ADMINISTRATION: NavItem[] = [...ADMINISTRATION, item('/admin/demo-editor')];

export const ACCOUNT: NavItem[] = [
  item('/profile', 'Edit Profile'),
  item('/settings', 'Preferences'),
  item('/help', 'Help & Support'),
];
