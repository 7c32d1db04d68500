// PGlite's query(), made cheaper for our many small statements (decision 040, stop 45). Two costs
// of its own, measured per statement beside what the database itself does:
// - It merges the caller's parsers into its own (318 types, arrays included) on every call when
//   the caller passes any, and drizzle always does: 76 µs a statement, more than a lookup by key.
//   Here each column's parser is looked up in the caller's map, then in PGlite's.
// - It makes six calls into WebAssembly for a statement (parse, describe, bind, describe, execute,
//   sync), the first describe only to learn the parameters' types and serialise each value for its
//   type. Here the five messages go in one call (126 → 97 µs for a lookup by key), and the values
//   go as untyped text, as node-postgres sends them to PostgreSQL: the server infers the types as
//   it did, and the values are written as on our PostgreSQL deployments (`textValue`).
import {
  messages,
  type PGlite,
  protocol,
  type QueryOptions,
  type Results,
  type Transaction,
} from '@electric-sql/pglite';
import { PreparedStatements } from './pglite-statements';

type Query = <T>(text: string, params?: unknown[], options?: QueryOptions) => Promise<Results<T>>;
type Parser = (value: string, typeId: number) => unknown;

/** What drizzle calls on the PGlite client it is given: query() and transaction(), nothing else. */
export interface PgliteQueries {
  query: Query;
  transaction: PGlite['transaction'];
  /** Forgets every kept statement (after a schema change made outside `query`). */
  forgetPrepared: () => void;
}

export function pgliteQueries(client: PGlite): PgliteQueries {
  const statements = new PreparedStatements();
  const send = (parts: Uint8Array[], options: QueryOptions | undefined) =>
    client.execProtocolStream(concat(parts), { syncToFs: false, onNotice: options?.onNotice });
  const run = async <T>(
    text: string,
    params: unknown[] | undefined,
    options: QueryOptions | undefined,
    outsideTransaction: boolean,
  ): Promise<Results<T>> => {
    const closing = statements.takeClosing();
    // Closing a statement is no error even in a failed transaction; its answer is not needed.
    if (closing.length)
      await send([...closing.map((name) => protocol.serialize.close({ type: 'S', name })), sync], options);
    const named = statements.statementFor(text);
    let replies: messages.BackendMessage[];
    try {
      // A new text is parsed on its own first: a failure of the execution that follows must not
      // leave the cache unsure whether the statement exists.
      if (named?.parse) {
        await send([protocol.serialize.parse({ name: named.name, text }), sync], options);
        statements.parsed(text, named.name);
      }
      replies = await send(
        [
          ...(named ? [] : [protocol.serialize.parse({ text })]),
          protocol.serialize.bind({ statement: named?.name, values: (params ?? []).map(textValue) }),
          protocol.serialize.describe({ type: 'P' }),
          protocol.serialize.execute({}),
          sync,
        ],
        options,
      );
    } catch (error) {
      if (error instanceof messages.DatabaseError) {
        // A kept statement whose tables changed under it: forget them all, so the next one reads afresh.
        if (error.code === '0A000') statements.forgetAll();
        // As PGlite's query() does, so that a failure names its statement.
        Object.assign(error, { query: text, params, queryOptions: options });
      }
      throw error;
    }
    if (!named) statements.ran(text);
    if (outsideTransaction) await client.syncToFs();
    return resultOf<T>(replies, options?.parsers ?? {}, client.parsers, options?.rowMode === 'array');
  };
  // COPY through /dev/blob and explicit parameter types (neither used here) take PGlite's own path.
  const ownPath = (options: QueryOptions | undefined) => Boolean(options?.blob || options?.paramTypes);
  const query: Query = (text, params, options) =>
    ownPath(options)
      ? client.query(text, params, options)
      : client._runExclusiveTransaction(() =>
          client._runExclusiveQuery(() => run(text, params, options, true)),
        );
  const transaction: PGlite['transaction'] = (fn) =>
    client.transaction((tx) => {
      // The transaction PGlite hands out, with its query() on this path: the transaction already
      // holds PGlite's transaction lock, so a statement takes only the query lock, as in PGlite.
      const ours: Transaction = Object.create(tx);
      ours.query = (text, params, options) => {
        if (tx.closed) throw new Error('Transaction is closed');
        return ownPath(options)
          ? tx.query(text, params, options)
          : client._runExclusiveQuery(() => run(text, params, options, false));
      };
      return fn(ours);
    });
  return { query, transaction, forgetPrepared: () => statements.forgetAll() };
}

const sync = protocol.serialize.sync();

/** The commands whose tag's count is rows written, as PGlite counts `affectedRows`. */
const COUNTED_COMMANDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE']);

/** The one statement's rows, each column read by the caller's parser for its type, else PGlite's. */
function resultOf<T>(
  replies: messages.BackendMessage[],
  callerParsers: Record<number, Parser>,
  ownParsers: Record<number | string, Parser>,
  asArrays: boolean,
): Results<T> {
  let fields: { name: string; dataTypeID: number }[] = [];
  let parsers: (Parser | undefined)[] = [];
  const rows: unknown[] = [];
  let affectedRows = 0;
  for (const reply of replies) {
    if (reply.name === 'rowDescription') {
      fields = (reply as messages.RowDescriptionMessage).fields.map(({ name, dataTypeID }) => ({
        name,
        dataTypeID,
      }));
      parsers = fields.map(({ dataTypeID }) => callerParsers[dataTypeID] ?? ownParsers[dataTypeID]);
    } else if (reply.name === 'dataRow') {
      const values = (reply as messages.DataRowMessage).fields.map((value, i) => {
        const parser = parsers[i];
        return value === null ? null : parser ? parser(value, fields[i]?.dataTypeID as number) : value;
      });
      rows.push(asArrays ? values : Object.fromEntries(values.map((value, i) => [fields[i]?.name, value])));
    } else if (reply.name === 'commandComplete') {
      const words = (reply as messages.CommandCompleteMessage).text.split(' ');
      const count = Number.parseInt(words.at(-1) as string, 10);
      if (COUNTED_COMMANDS.has(words[0] as string)) affectedRows = count;
    }
  }
  return { rows: rows as T[], fields, affectedRows };
}

function concat(parts: Uint8Array[]): Uint8Array {
  const whole = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    whole.set(part, offset);
    offset += part.length;
  }
  return whole;
}

/** A parameter as text, written as node-postgres writes it; null and undefined are SQL NULL. */
export function textValue(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (value instanceof Date) return value.toISOString();
  if (ArrayBuffer.isView(value))
    return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
  if (Array.isArray(value)) return arrayLiteral(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function arrayLiteral(values: unknown[]): string {
  const items = values.map((item) => {
    if (item === null || item === undefined) return 'NULL';
    if (Array.isArray(item)) return arrayLiteral(item);
    return `"${(textValue(item) as string).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  });
  return `{${items.join(',')}}`;
}
