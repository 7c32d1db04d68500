import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Database } from '../../db/client';
import { writeTemplate } from '../../db/template';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { prepareJobQueue } from '../jobs/queue';
import { JOBS } from '../jobs/registry';
import { refreshDelinquency } from '../modules/contracts/delinquency';
import { recordDemoHistoryDelivered } from '../modules/messages/outbox';
import { exportTables } from './copy';
import { DEMO_PORTFOLIO, type PortfolioSize, seedDemoPortfolio } from './portfolio';
import { DEMO_TEMPLATE_SCHEMA, DEMO_TEMPLATE_SECRET, type DemoTemplate } from './template';
import { seedDemoUsers } from './users';

/**
 * Builds the demo book (users, portfolio, a year of payments and closes of business, arrears
 * figures) into a PGlite template (`dump`), and the same rows as JSON for a copy into another
 * database (`rows`): the one slow step, done once instead of at every fresh start (decision 025).
 * Run in a process of its own (`scripts/build-demo-template.ts`), keyed with DEMO_TEMPLATE_SECRET.
 */
export async function buildDemoTemplate(
  files: DemoTemplate,
  size: PortfolioSize = DEMO_PORTFOLIO,
  log: (message: string) => void = () => {},
): Promise<void> {
  await writeTemplate(files.dump, async (database) => {
    await prepareJobQueue(database, JOBS);
    // Uploaded KYC files are not kept: they are the demo's fixed files, written again at load.
    const dataDir = mkdtempSync(path.join(tmpdir(), 'demo-template-'));
    try {
      const app = await buildApp({
        config: loadConfig({ DATA_DIR: dataDir, DEMO_DATA: 'true', LOG_LEVEL: 'silent' }),
        database,
        appSecret: DEMO_TEMPLATE_SECRET,
        logger: false,
        webRoot: path.join(dataDir, 'no-web-build'),
      });
      // The moment the book's dates are relative to: a later start shifts them by whole days since.
      const builtAt = app.ctx.clock.now();
      await seedDemoUsers(app.ctx);
      await seedDemoPortfolio(app.ctx, { size, log });
      // The stored arrears figures, so lists and PAR are right at the first look.
      await refreshDelinquency(app.ctx);
      // The tokens its payments queued went out at the time (decision 027).
      await recordDemoHistoryDelivered(app.ctx);
      await app.close();
      await unsealAuditChain(database);
      await database.withConnection(async (connection) => {
        await connection.exec(
          `CREATE SCHEMA ${DEMO_TEMPLATE_SCHEMA}; CREATE TABLE ${DEMO_TEMPLATE_SCHEMA}.build (built_at timestamptz NOT NULL)`,
        );
        await connection.query(`INSERT INTO ${DEMO_TEMPLATE_SCHEMA}.build VALUES ($1)`, [
          builtAt.toISOString(),
        ]);
        // Without autovacuum on the embedded database: compact what the build rewrote, give the
        // planner its statistics.
        await connection.exec('VACUUM FULL');
        await connection.exec('ANALYZE');
      });
      await exportTables(database, files.rows, builtAt);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
}

/**
 * The build's audit rows become rows chained with plain sha256 (chain_version 1, decision 016), so
 * the start that loads them seals them with its own key through `sealLegacyAuditRows`, the one
 * way rows get the keyed hash after the fact. Only here, on the build's own database, is the
 * append-only trigger switched off, for this one statement.
 */
async function unsealAuditChain(database: Database): Promise<void> {
  await database.withConnection((connection) =>
    connection.exec(`
      BEGIN;
      ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only;
      DO $$
      DECLARE
        r record;
        previous text := NULL;
        current_hash text;
      BEGIN
        FOR r IN SELECT * FROM audit_log ORDER BY id LOOP
          current_hash := audit_hash(previous, audit_payload(r.at, r.actor_id, r.actor_label, r.action,
            r.entity_type, r.entity_id, r.before, r.after, r.ip, r.request_id));
          UPDATE audit_log SET prev_hash = previous, hash = current_hash, chain_version = 1, chain_seq = NULL, write_mac = NULL
            WHERE id = r.id;
          previous := current_hash;
        END LOOP;
      END $$;
      ALTER TABLE audit_log ENABLE TRIGGER audit_log_append_only;
      COMMIT;`),
  );
}
