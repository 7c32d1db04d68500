import { sql } from 'drizzle-orm';
import { recoveryEndpoints } from '../../../contracts/recoveries';
import type { AppInstance } from '../../app';
import { actorOf } from '../../audit';
import { route } from '../../route';
import { withTransaction } from '../../transaction';
import { outstandingByComponent, recoveryContract } from '../contracts/recovery';
import { countRepossessions, countWriteOffs, selectRepossessions, selectWriteOffs } from './read';
import {
  approveWriteOff,
  cancelRepossession,
  decideRepossession,
  recoverRepossession,
  rejectWriteOff,
  requestRepossession,
  requestWriteOff,
} from './service';

/** Repossessions and write-offs: asked for by collectors, decided by a second person with `recoveries.approve`. */
export async function recoveryRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const tags = ['recoveries'];
  const read = { access: 'business.read', tags } as const;
  const ask = { access: 'collections.work', tags } as const;
  const decide = { access: 'recoveries.approve', tags } as const;

  const repossessionOf = async (id: string) => {
    const [found] = await selectRepossessions(ctx.db, sql`r.id = ${id}`, 1);
    if (!found) throw new Error(`Repossession ${id} vanished`);
    return found;
  };
  const writeOffOf = async (id: string) => {
    const [found] = await selectWriteOffs(ctx.db, sql`w.id = ${id}`, 1);
    if (!found) throw new Error(`Write-off ${id} vanished`);
    return found;
  };

  route(app, recoveryEndpoints.contractRecoveries, read, async (request) => {
    const { id } = request.params;
    await recoveryContract(ctx.db, id);
    const [[repossession], [writeOff], outstanding] = await Promise.all([
      selectRepossessions(ctx.db, sql`r.contract_id = ${id}`, 1),
      selectWriteOffs(ctx.db, sql`w.contract_id = ${id}`, 1),
      outstandingByComponent(ctx.db, id),
    ]);
    return { repossession: repossession ?? null, writeOff: writeOff ?? null, outstanding };
  });

  route(app, recoveryEndpoints.requestRepossession, ask, async (request) => {
    const id = await withTransaction(ctx, (tx) =>
      requestRepossession(tx, actorOf(request), request.params.id, request.body.reason),
    );
    return repossessionOf(id);
  });

  route(app, recoveryEndpoints.repossessions, read, async (request) => {
    const { status, page, pageSize } = request.query;
    const where = status ? sql`r.status = ${status}` : undefined;
    const [items, total] = await Promise.all([
      selectRepossessions(ctx.db, where, pageSize, (page - 1) * pageSize),
      countRepossessions(ctx.db, where),
    ]);
    return { items, total, page, pageSize };
  });

  route(app, recoveryEndpoints.approveRepossession, decide, async (request) => {
    const { id } = request.params;
    await withTransaction(ctx, (tx) =>
      decideRepossession(tx, actorOf(request), id, 'approve', request.body.note),
    );
    return repossessionOf(id);
  });

  route(app, recoveryEndpoints.rejectRepossession, decide, async (request) => {
    const { id } = request.params;
    await withTransaction(ctx, (tx) =>
      decideRepossession(tx, actorOf(request), id, 'reject', request.body.reason),
    );
    return repossessionOf(id);
  });

  route(app, recoveryEndpoints.recoverRepossession, decide, async (request) => {
    const { id } = request.params;
    await withTransaction(ctx, (tx) => recoverRepossession(tx, actorOf(request), id, request.body));
    return repossessionOf(id);
  });

  route(app, recoveryEndpoints.cancelRepossession, ask, async (request) => {
    const { id } = request.params;
    await withTransaction(ctx, (tx) => cancelRepossession(tx, actorOf(request), id, request.body.reason));
    return repossessionOf(id);
  });

  route(app, recoveryEndpoints.requestWriteOff, ask, async (request) => {
    const id = await withTransaction(ctx, (tx) =>
      requestWriteOff(tx, actorOf(request), request.params.id, request.body.reason),
    );
    return writeOffOf(id);
  });

  route(app, recoveryEndpoints.writeOffs, read, async (request) => {
    const { status, page, pageSize } = request.query;
    const where = status ? sql`w.status = ${status}` : undefined;
    const [items, total] = await Promise.all([
      selectWriteOffs(ctx.db, where, pageSize, (page - 1) * pageSize),
      countWriteOffs(ctx.db, where),
    ]);
    return { items, total, page, pageSize };
  });

  route(app, recoveryEndpoints.approveWriteOff, decide, async (request) => {
    const { id } = request.params;
    await withTransaction(ctx, (tx) => approveWriteOff(tx, actorOf(request), id, request.body.note));
    return writeOffOf(id);
  });

  route(app, recoveryEndpoints.rejectWriteOff, decide, async (request) => {
    const { id } = request.params;
    await withTransaction(ctx, (tx) => rejectWriteOff(tx, actorOf(request), id, request.body.reason));
    return writeOffOf(id);
  });
}
