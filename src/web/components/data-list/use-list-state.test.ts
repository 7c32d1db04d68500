import { describe, expect, it } from 'vitest';
import { contractListQuery } from '@/contracts/contracts';
import { planListQuery } from '@/contracts/plans';
import { listDefaultsOf, parseListState } from './use-list-state';

describe('a list page’s state from its query schema', () => {
  it('takes the API’s defaults, or the page’s own first view', () => {
    expect(listDefaultsOf(contractListQuery)).toMatchObject({ sort: 'createdAt', order: 'desc' });
    expect(listDefaultsOf(planListQuery, { sort: 'code', order: 'asc' })).toMatchObject({
      sort: 'code',
      order: 'asc',
      filters: ['status', 'frequency', 'allVersions'],
    });
  });

  it('keeps only the schema’s filters and sorts from the address bar', () => {
    const defaults = listDefaultsOf(contractListQuery);
    const state = parseListState('?status=active&bogus=1&sort=dpd&order=asc&page=3', defaults);
    expect(state).toEqual({ q: '', sort: 'dpd', order: 'asc', page: 3, filters: { status: 'active' } });
    expect(parseListState('?sort=nonsense', defaults).sort).toBe('createdAt');
  });
});
