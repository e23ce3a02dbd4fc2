import { createHash } from 'node:crypto';
import pg from 'pg';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { Database } from './schema.ts';

/**
 * Named prepared statements for the hot reads (decision 127).
 *
 * Kysely hands node-postgres `client.query(text, values)`: an unnamed statement, which PostgreSQL
 * parses and plans again at every call (for the portal's summary the planning took as long as the
 * execution). node-postgres prepares a statement once per connection when the query carries a
 * `name` (`{ name, text, values }`: Parse once, then only Bind and Execute), and PostgreSQL's plan
 * cache keeps its plan. Kysely has no way to pass a name, so a read opts in with the marker
 * `PREPARED` right after its `SELECT` (a builder query: `.modifyFront(PREPARED)`; raw SQL:
 * `` sql`SELECT ${PREPARED} …` ``), and `prepareMarked(pool)` makes every client of the pool send
 * such a text as a statement named after a hash of the text. Only marked statements are named:
 * each distinct text is a prepared statement held by every connection for its lifetime, so only
 * reads with a small, fixed set of texts are marked (no `IN` lists of varying length).
 *
 * What it saves depends on PostgreSQL's plan cache choosing the statement's generic plan (after
 * five custom plans it keeps the generic one when its estimated cost is not above theirs plus an
 * allowance for planning): a parameter the estimate depends on much, such as `LIMIT $1` (assumed
 * to take a tenth of the rows), keeps it planning every call, so such a value is written into the
 * text instead (the first page's limit).
 *
 * Behind PgBouncer in transaction mode, named statements need PgBouncer ≥ 1.21 with
 * `max_prepared_statements` set (README, "Running on several servers").
 */

const MARK = '/*prepared*/';

/** Put right after `SELECT`: this statement is prepared once per connection. */
export const PREPARED = sql.raw(MARK);

/** A marked text: the marker right after `select ` (either case; white space before it is allowed). */
export function isMarked(text: string): boolean {
  let i = 0;
  while (i < text.length && text.charCodeAt(i) <= 32) i += 1;
  return text.startsWith(MARK, i + 7);
}

const names = new Map<string, string>();

/** The statement's name: the same text, the same name, in every connection and process. */
export function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `g${createHash('sha256').update(text).digest('base64url').slice(0, 22)}`;
    // The marked texts are few; the map is only a guard against a mistake growing it without end.
    if (names.size >= 1000) names.clear();
    names.set(text, name);
  }
  return name;
}

type Query = (...args: unknown[]) => unknown;

/** Every client the pool connects sends marked texts as named statements. */
export function prepareMarked(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    client.query = function (this: pg.Client, ...args: unknown[]) {
      // The prototype's query at call time (a test that wraps it still sees every statement).
      const query = pg.Client.prototype.query as unknown as Query;
      const [text, values] = args;
      if (args.length === 2 && typeof text === 'string' && Array.isArray(values) && isMarked(text)) {
        return query.call(this, { name: statementName(text), text, values });
      }
      return query.apply(this, args);
    } as typeof client.query;
  });
}

/** Stands for one value while a read's template is built: its parameters name the values they take. */
class Slot {
  constructor(readonly key: string) {}
}

/**
 * A hot read built and compiled by Kysely once per shape, then only given new values (decision
 * 128): building and compiling the same query at every request cost more node CPU than binding
 * its values. `build` makes the query from its values as usual and returns it compiled; it is
 * called once per shape (which of the values are null or undefined) with a stand-in for each
 * other value, and the compiled text's parameters say which value goes where. So `build` may
 * branch on whether a value is null, and must pass every value to the query as it is: a value it
 * computes from another (a date from `now`) is a value of its own, given by the caller; anything
 * else is refused at the first call. The text is the same text `build` makes with real values, so
 * a `PREPARED` marker in it still makes it a named prepared statement.
 */
export function compiledOnce<V extends Record<string, unknown>, R>(build: (db: Kysely<Database>, values: V) => CompiledQuery<R>) {
  const templates = new Map<string, { sql: string; slots: string[] }>();
  return async function run(db: Kysely<Database>, values: V): Promise<R[]> {
    let shape = '';
    for (const key in values) shape += values[key] === null || values[key] === undefined ? '0' : '1';
    let template = templates.get(shape);
    if (template === undefined) {
      const stand: Record<string, unknown> = {};
      for (const key in values) stand[key] = values[key] === null || values[key] === undefined ? values[key] : new Slot(key);
      const compiled = build(db, stand as V);
      const slots = compiled.parameters.map((p) => {
        if (!(p instanceof Slot)) throw new Error(`compiledOnce: a parameter is not one of the values (${String(p)})`);
        return p.key;
      });
      template = { sql: compiled.sql, slots };
      templates.set(shape, template);
    }
    const parameters = template.slots.map((key) => values[key]);
    const { rows } = await db.executeQuery(CompiledQuery.raw(template.sql, parameters) as CompiledQuery<R>);
    return rows;
  };
}
