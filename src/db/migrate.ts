import { readFileSync } from 'node:fs';
import path from 'node:path';
import { projectPath } from '../server/paths';
import type { Database } from './client';

interface JournalEntry {
  idx: number;
  tag: string;
}

/** Any constant works; it only has to be the same for every instance of the app. */
const MIGRATION_LOCK_KEY = 7_240_113;

/**
 * Applies the committed drizzle-kit migrations in journal order, each in its own transaction.
 * An advisory lock makes concurrent starts of several instances safe: one migrates, the others
 * wait and then find nothing left to do.
 */
export async function migrate(
  database: Database,
  directory = projectPath('src/db/migrations'),
): Promise<string[]> {
  const journal = JSON.parse(readFileSync(path.join(directory, 'meta/_journal.json'), 'utf8')) as {
    entries: JournalEntry[];
  };
  const entries = [...journal.entries].sort((a, b) => a.idx - b.idx);
  return database.withConnection(async (connection) => {
    await connection.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await connection.exec(
        'CREATE TABLE IF NOT EXISTS schema_migrations (tag text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const applied = new Set(
        (await connection.query<{ tag: string }>('SELECT tag FROM schema_migrations')).map((row) => row.tag),
      );
      const done: string[] = [];
      for (const entry of entries) {
        if (applied.has(entry.tag)) continue;
        const statements = readFileSync(path.join(directory, `${entry.tag}.sql`), 'utf8')
          .split('--> statement-breakpoint')
          .map((statement) => statement.trim())
          .filter(Boolean);
        await connection.exec('BEGIN');
        try {
          for (const statement of statements) await connection.exec(statement);
          await connection.query('INSERT INTO schema_migrations (tag) VALUES ($1)', [entry.tag]);
          await connection.exec('COMMIT');
        } catch (error) {
          await connection.exec('ROLLBACK');
          throw new Error(`Migration ${entry.tag} failed: ${(error as Error).message}`);
        }
        done.push(entry.tag);
      }
      return done;
    } finally {
      await connection.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  });
}
