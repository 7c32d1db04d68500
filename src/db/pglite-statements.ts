/**
 * The named prepared statements of the embedded database's one connection (decision 051): a
 * statement text seen before is bound and executed by name, so PostgreSQL parses, analyses and
 * rewrites it once, and keeps its plan when a generic one serves (after five executions, as for
 * any prepared statement). On PGlite that work was 40 to 50 % of a usual statement's time.
 *
 * Only queries and data changes are kept; a schema change (a migration, a test's DDL) forgets
 * them all, since a kept `SELECT *` would fail once its table's columns change. The least recently
 * used are forgotten beyond `MAX_STATEMENTS` (texts built with a varying number of values would
 * otherwise grow without bound). A forgotten statement is closed on the connection at its next use.
 */

/** Statements kept at most: the app's own texts are a few hundred. */
export const MAX_STATEMENTS = 256;

/** Texts kept by name: what a query, an insert, an update or a delete starts with. */
const KEPT = /^\s*(select|with|insert|update|delete|values)\b/i;
/**
 * A statement whose rows come from arrays it is given (`unnest($1, $2)`): one row or thousands from
 * one run to the next, where a generic plan assumes ten, on the tables as they were when it was
 * made (decision 051, stop 59). Never kept, so PostgreSQL plans each run for its own arrays.
 */
const ARRAY_ROWS = /\bunnest\s*\(/i;
/** Words of a schema change anywhere in a text (one statement or several): a false alarm only re-parses. */
const SCHEMA_CHANGE = /\b(create|alter|drop|truncate|comment|reindex|cluster|refresh|import)\s/i;

/** Whether `text` may change the schema, after which every kept statement is forgotten. */
export function changesSchema(text: string): boolean {
  return SCHEMA_CHANGE.test(text);
}

export class PreparedStatements {
  /** Text to name, least recently used first. */
  private readonly names = new Map<string, string>();
  /** Names forgotten but not yet closed on the connection. */
  private closing: string[] = [];
  private counter = 0;

  /** The name a text is kept under, and whether it must be parsed first; null for a text not kept. */
  statementFor(text: string): { name: string; parse: boolean } | null {
    if (!KEPT.test(text) || ARRAY_ROWS.test(text)) return null;
    const name = this.names.get(text);
    if (name !== undefined) {
      this.names.delete(text);
      this.names.set(text, name);
      return { name, parse: false };
    }
    this.counter += 1;
    return { name: `pglite_${this.counter}`, parse: true };
  }

  /** A text was parsed under its name: kept from now on, the least used forgotten beyond the cap. */
  parsed(text: string, name: string): void {
    this.names.set(text, name);
    if (this.names.size <= MAX_STATEMENTS) return;
    const [oldest, oldestName] = this.names.entries().next().value as [string, string];
    this.names.delete(oldest);
    this.closing.push(oldestName);
  }

  /** After `text` ran unnamed: a schema change forgets every kept statement. */
  ran(text: string): void {
    if (changesSchema(text)) this.forgetAll();
  }

  forgetAll(): void {
    this.closing.push(...this.names.values());
    this.names.clear();
  }

  /** The names to close on the connection now (each once). */
  takeClosing(): string[] {
    const names = this.closing;
    this.closing = [];
    return names;
  }

  get size(): number {
    return this.names.size;
  }
}
