import { describe, expect, it } from 'vitest';
import { AREA_PATHS, AREAS, findArea } from './areas';
import { PUBLIC_PATHS, publicPathOf } from './public-paths';

const SEED_SIGNED_IN = [
  '/',
  '/customers',
  '/devices',
  '/service-plans',
  '/contracts',
  '/collections',
  '/payment-processing',
  '/device-control',
  '/risk',
  '/analytics',
  '/finance',
  '/reports',
  '/scenario-analysis',
  '/crm',
  '/crm/contacts/:id',
  '/communications',
  '/ai-customer-service',
  '/whatsapp-test',
  '/profile',
  '/settings',
  '/help',
  '/help-tutorial',
  '/tutorials',
  '/workflows',
  '/admin/users',
  '/admin/backup',
  '/admin/audit',
  '/admin/integrations',
  '/admin/compliance',
  '/admin/investor-codes',
  '/admin/demo-editor',
  '/admin/treasury',
  '/admin/executive',
  '/admin/auto-debit',
];
const SEED_PUBLIC = ['/customer', '/investor', '/calculator', '/demo'];
/** Added since the seed: the background jobs view (issue 11). */
const ADDED = ['/admin/jobs', '/admin/close-of-business'];

describe('area table', () => {
  it('holds exactly the routes of seed section 2 (besides the signed-out-only ones) and those added since', () => {
    expect([...AREA_PATHS].sort()).toEqual([...SEED_SIGNED_IN, ...SEED_PUBLIC, ...ADDED].sort());
  });

  it('finds areas by path, with the contact id parameter', () => {
    expect(findArea('/contracts')?.area.title).toBe('Contracts');
    expect(findArea('/crm/contacts/abc')?.path).toBe('/crm/contacts/:id');
    expect(findArea('/calculator')?.area.access).toBe('public');
  });

  it('routes exactly the public areas before the rest (the first chunk has no area table)', () => {
    const publicAreas = AREA_PATHS.filter((path) => AREAS[path].access === 'public');
    expect([...PUBLIC_PATHS].sort()).toEqual([...publicAreas].sort());
    expect(publicPathOf('/customer')).toBe('/customer');
    expect(publicPathOf('/customer/contracts/1')).toBe('/customer');
    expect(publicPathOf('/customers')).toBeNull();
    expect(publicPathOf('/demos')).toBeNull();
  });

  it('finds nothing for unknown paths', () => {
    expect(findArea('/nope')).toBeNull();
    expect(findArea('/crm/contacts/')).toBeNull();
    expect(findArea('/contracts/extra')).toBeNull();
  });
});
