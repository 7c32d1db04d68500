import { getTableName } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { listFilterNames, listSortNames } from '../../src/contracts/lists';
import { contractFigures } from '../../src/db/schema';
import { rowsChanged, rowTagOf, tablesChanged, tagOf } from '../../src/server/cache';
import { AppError } from '../../src/server/errors';
import {
  type ListDefinition,
  listCsv,
  orderOf,
  pageKeyOf,
  pagesCache,
  totalKeyOf,
  totalsCache,
  whereOf,
} from '../../src/server/list-definition';
import { contractList } from '../../src/server/modules/contracts/list';
import { customerList } from '../../src/server/modules/customers/list';
import { commandList } from '../../src/server/modules/devices/control/read';
import { deviceList, deviceModelList } from '../../src/server/modules/devices/list';
import { journalList } from '../../src/server/modules/ledger/list';
import { messageList } from '../../src/server/modules/messages/list';
import { planList } from '../../src/server/modules/plans/list';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { deviceInStock } from '../support/origination';

// biome-ignore lint/suspicious/noExplicitAny: a table of lists of every item type
const LISTS: ReadonlyArray<ListDefinition<any, any>> = [
  contractList,
  customerList,
  deviceList,
  deviceModelList,
  planList,
  journalList,
  messageList,
  commandList,
];
const dialect = new PgDialect();
const env = { timeZone: 'Africa/Nairobi', businessDate: '2026-03-02', buckets: [1, 31, 61, 91] };

describe('list definitions', () => {
  it.each(LISTS.map((list) => [list.name, list] as const))(
    '%s: every sort ends in a unique column, in the sort’s direction both ways',
    (_name, list) => {
      for (const sort of listSortNames(list.endpoint.query)) {
        for (const order of ['asc', 'desc'] as const) {
          const text = orderOf(list, list.endpoint.query.parse({ sort, order })).map(
            (part) => dialect.sqlToQuery(part).sql,
          );
          const direction = order === 'asc' ? ' asc' : ' desc';
          const against = order === 'asc' ? ' desc' : ' asc';
          const spec = list.sorts[sort];
          // A reversed sort's columns run against it (days past due are the days arrears began,
          // reversed); its tie-break, like every other sort's columns, runs with it.
          const columns = spec?.reversed ? text.slice(0, -1) : text;
          expect(columns.every((column) => column.includes(spec?.reversed ? against : direction))).toBe(true);
          expect(text.at(-1)).toContain(direction);
          if (!spec?.unique) expect(text.at(-1)).toContain(`"${list.tieBreak.name}"`);
        }
      }
    },
  );

  it.each(LISTS.map((list) => [list.name, list] as const))(
    '%s: the total and page cache keys change with every filter of the schema',
    (_name, list) => {
      const base = list.endpoint.query.parse({});
      const total = totalKeyOf(list, base, env);
      const page = pageKeyOf(list, base, env, null);
      for (const filter of listFilterNames(list.endpoint.query)) {
        const narrowed = { ...base, [filter]: `${String(base[filter] ?? '')}x` };
        expect(totalKeyOf(list, narrowed, env), filter).not.toBe(total);
        expect(pageKeyOf(list, narrowed, env, null), filter).not.toBe(page);
      }
      expect(totalKeyOf(list, { ...base, q: 'x' }, env)).not.toBe(total);
      expect(totalKeyOf(list, base, { ...env, timeZone: 'UTC' })).not.toBe(total);
      expect(totalKeyOf(list, base, { ...env, businessDate: '2026-03-03' })).not.toBe(total);
      // The page (not the total) depends on the sort and the page.
      expect(totalKeyOf(list, { ...base, page: 2 }, env)).toBe(total);
      expect(pageKeyOf(list, { ...base, page: 2 }, env, null)).not.toBe(page);
    },
  );
});

describe('the journal search', () => {
  it('takes % and _ as the characters typed, not as wildcards', () => {
    const where = whereOf(journalList, journalList.endpoint.query.parse({ q: '50%_off' }), env);
    expect(where && dialect.sqlToQuery(where).params).toContain('%50\\%\\_off%');
  });
});

describe.each(DATABASE_KINDS)('list definitions on %s', (kind) => {
  let t: TestApp;
  let manager: TestClient;
  beforeAll(async () => {
    t = await startTestApp(kind);
    manager = await t.signedIn('manager');
  });
  afterAll(() => t.close());

  it('pages through ties in a stable order, the same rows reversed when the order flips', async () => {
    // Six plans with one name: the name sort ties on every row, and only the id tells them apart.
    for (let i = 0; i < 6; i++) {
      const created = await manager.post('/api/service-plans', {
        code: `TIE-${i}`,
        name: 'Tied plan',
        frequency: 'monthly',
        allowedTerms: [6],
        apr: 12,
        interestMethod: 'flat',
      });
      expect(created.statusCode).toBe(201);
    }
    const walk = async (order: 'asc' | 'desc') => {
      const ids: string[] = [];
      for (let page = 1; page <= 6; page++) {
        const response = await manager.get(
          `/api/service-plans?q=TIE-&sort=name&order=${order}&pageSize=1&page=${page}`,
        );
        ids.push(...response.json<{ items: { id: string }[] }>().items.map((plan) => plan.id));
      }
      return ids;
    };
    const ascending = await walk('asc');
    expect(new Set(ascending).size).toBe(6);
    expect(await walk('desc')).toEqual([...ascending].reverse());
  });

  it('exports every matching row as CSV, in the list’s order, and refuses past the export limit', async () => {
    const page = await manager.get('/api/service-plans?q=TIE-&sort=code&order=asc&pageSize=2');
    const { items, total } = page.json<{ items: { code: string }[]; total: number }>();
    expect(items).toHaveLength(2);
    const csv = await manager.get(
      '/api/service-plans?q=TIE-&sort=code&order=asc&pageSize=2&page=3&format=csv',
    );
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.trim().split('\r\n');
    expect(lines).toHaveLength(total + 1);
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(
      Array.from({ length: total }, (_, i) => `TIE-${i}`),
    );

    const small = { ...planList, csv: { ...planList.csv, limit: total - 1 } };
    const refused = await listCsv(t.app.ctx, small, planList.endpoint.query.parse({ q: 'TIE-' }), null).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('EXPORT_TOO_LARGE');
  });

  /**
   * Waits until this instance has heard every eviction published so far (notifications arrive in
   * order, so a marker heard means all before it were): none sent earlier arrives afterwards.
   */
  let markers = 0;
  async function settled(): Promise<void> {
    const { bus, db } = t.app.ctx;
    markers += 1;
    const marker = String(markers);
    let heard = 0;
    bus.on(`test-settled-${marker}`, () => {
      heard += 1;
    });
    await bus.flushed();
    await bus.publish(db, `test-settled-${marker}`, '*');
    // Once at once, once more as notified.
    await expect.poll(() => heard, { timeout: 5000 }).toBe(2);
  }

  it.each(LISTS.filter((list) => list.cache).map((list) => [list.name, list] as const))(
    '%s: a write to any table it shows evicts its pages, and to any table a total reads its totals',
    async (_name, list) => {
      const { ctx } = t.app;
      const filtered = Object.values(list.filterReads ?? {}).flatMap((tables) => tables ?? []);
      for (const table of list.shows) {
        await settled();
        const pages = pagesCache(ctx, list);
        const totals = totalsCache(ctx, list);
        const tags = filtered.includes(table) ? [tagOf(table)] : [];
        const key = `key-${getTableName(table)}`;
        await pages?.get(key, async () => ({ bytes: Buffer.from('old'), tags: [] }));
        await totals?.get(key, async () => 1, tags);
        await tablesChanged(ctx, ctx.db, table);
        const reload = vi.fn(async () => 2);
        await totals?.get(key, reload, tags);
        const reloadPage = vi.fn(async () => ({ bytes: Buffer.from('new'), tags: [] }));
        await pages?.get(key, reloadPage);
        if (pages) expect(reloadPage, getTableName(table)).toHaveBeenCalledOnce();
        // A total is read again only if it reads the table: every total, or one whose filter does.
        const read = (list.counts ?? list.shows).includes(table) || tags.length > 0;
        expect(reload, getTableName(table)).toHaveBeenCalledTimes(read ? 1 : 0);
      }
    },
  );

  it('evicts only the contracts pages that show a contract whose figures moved, and those sorted or filtered by figures', async () => {
    const { ctx } = t.app;
    const pages = pagesCache(ctx, contractList);
    if (!pages) throw new Error('the contracts list keeps pages');
    await settled();
    const page = (name: string) => ({ bytes: Buffer.from(name), tags: [] as string[] });
    const showing = (id: string) => () => [rowTagOf(contractFigures, id)];
    await pages.get('shows-x', async () => page('x'), showing('x'));
    await pages.get('shows-y', async () => page('y'), showing('y'));
    await pages.get(
      'by-dpd',
      async () => page('dpd'),
      () => [rowTagOf(contractFigures, 'y'), tagOf(contractFigures)],
    );
    await rowsChanged(ctx, ctx.db, contractFigures, ['x']);
    const again = async (key: string) =>
      (await pages.get(key, async () => page('reloaded'))).bytes.toString();
    expect([await again('shows-x'), await again('shows-y'), await again('by-dpd')]).toEqual([
      'reloaded',
      'y',
      'reloaded',
    ]);
  });

  it('shows a renamed model on the unit list at once, though its pages are cached', async () => {
    const device = await deviceInStock(manager);
    const path = `/api/devices?q=${device.serialNumber}`;
    expect((await manager.get(path)).json().items[0].model.model).toMatch(/^Phone /);
    const renamed = await manager.patch(`/api/device-models/${device.model.id}`, { model: 'Renamed' });
    expect(renamed.statusCode).toBe(200);
    expect((await manager.get(path)).json().items[0].model.model).toBe('Renamed');
  });

  it("shows a staff member's new name as a customer's agent at once, though the customer pages are cached", async () => {
    const agent = await t.signedIn('agent');
    const created = await agent.post('/api/customers', {
      firstName: 'Cached',
      lastName: 'Agentname',
      phone: '+254711000999',
      assignedAgentId: agent.user.id,
    });
    expect(created.statusCode, created.body).toBe(201);
    const path = `/api/customers?q=${created.json().accountNumber}`;
    expect((await agent.get(path)).json().items[0].assignedAgent.name).toBe(`Agent ${agent.user.lastName}`);
    const renamed = await agent.patch('/api/user/profile', {
      firstName: 'Renamed',
      lastName: agent.user.lastName,
      email: agent.user.email,
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await agent.get(path)).json().items[0].assignedAgent.name).toBe(`Renamed ${agent.user.lastName}`);
  });
});
