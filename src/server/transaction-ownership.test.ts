import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** Decision 011, checked on the source: who may open a transaction, and no default `ctx.db`. */
const SERVER = path.join(import.meta.dirname);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sources(file);
    return file.endsWith('.ts') && !file.endsWith('.test.ts') ? [file] : [];
  });
}

/** Job bodies and the sign-in flow own their transactions; services never do. */
const OWNERS = new Set([
  'transaction.ts',
  'modules/contracts/delinquency.ts',
  'modules/customers/rescore.ts',
  'modules/auth/service.ts',
  // Statement imports: the upload's routes, and the confirm's run that posts chunk by chunk.
  'modules/payments/import-routes.ts',
  'modules/payments/import-posting.ts',
  // The auto-debit job: each attempt in its own transaction, so one failure never undoes another.
  'modules/payments/auto-debit/job.ts',
  // Close of business: each step in its own transaction, recorded done in it (resumable, decision 026).
  'modules/close-of-business/run.ts',
  // Device command delivery: the claim, then each answer recorded in its own transaction, with the
  // provider called between them outside any (decision 028); the OpenPAYGO provider issues its
  // token in one when the delivery calls it.
  'modules/devices/control/delivery.ts',
  'modules/devices/control/openpaygo.ts',
  // The outbox's sender: each message in its own transaction, so one failure never undoes another.
  'modules/messages/sender.ts',
  // Messaging settings and the SMS gateway's delivery reports (routes beside the outbox's own).
  'modules/messages/delivery-routes.ts',
  // The bulk send's queueing: each due send claimed and queued in its own transaction.
  'modules/messages/bulk-job.ts',
  // An STK push for the staff route and the portal's pay now: recorded, the provider asked
  // outside any transaction, then its answer recorded; and the provider's result, retried on a
  // deadlock.
  'modules/payments/mobile-money/push-starter.ts',
  // The API's payments in batches (decision 044): each batch in its own transaction, then what it
  // left alone each in its own, as the route did before.
  'modules/payments/batch.ts',
]);

describe('transaction ownership', () => {
  const files = sources(SERVER).map((file) => ({
    name: path.relative(SERVER, file).split(path.sep).join('/'),
    text: readFileSync(file, 'utf8'),
  }));

  it('opens transactions only in routes, the demo builder, jobs and withTransaction', () => {
    const opening = files
      .filter(({ text }) => /\.db\s*\.transaction\(|withTransaction\(/.test(text))
      .map(({ name }) => name)
      .filter((name) => !name.endsWith('/routes.ts') && !name.startsWith('demo/') && !OWNERS.has(name));
    expect(opening).toEqual([]);
  });

  it('never defaults an executor to ctx.db', () => {
    expect(files.filter(({ text }) => /=\s*ctx\.db\b\s*[,)]/.test(text)).map(({ name }) => name)).toEqual([]);
  });
});
