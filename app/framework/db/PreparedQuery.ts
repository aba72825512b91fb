/**
 * Performance (issue 12): a query written with knex's query builder once, compiled to SQL once
 * per database client, and then only run: each call binds its own values to the same SQL text.
 * Building a knex query, compiling it (`toSQL`) and passing it through knex's runner cost more
 * JavaScript per call than SQLite takes to run the statement; the hot paths (token lookup, a
 * recommendation and its items, item writes) run through here instead. `ConnectionProvider.run()`
 * executes them inside the request's unit of work like every other query.
 *
 *   const FIND = preparedQuery<{ hash: string }, TokenRow | undefined>((db, p) =>
 *     db('integration_token').where({ token_hash: p('hash') }).first());
 *   const row = await connection.run(FIND, { hash });
 *
 * `p(name)` stands for a value given at run time; anything else in the builder is fixed at
 * compile time, so a clause that depends on the request (a store filter, FOR UPDATE) needs a
 * query of its own. The result follows knex's: rows for a select, the row or undefined for
 * `first()`, the number of rows changed for an insert, update or delete.
 */
import type { Knex } from 'knex';

/** A value knex binds as it is, and that nothing else could be: marks where a run-time value goes. */
const MARK = '\u0000prepared-query-value:';

/** What knex's `toSQL()` says a query does, which decides how its result is read. */
export type QueryMethod = 'select' | 'first' | 'insert' | 'update' | 'del';

/** One dialect's SQL for a prepared query, and where each bound value comes from. */
export interface CompiledQuery<V> {
  /** SQL with `?` placeholders, as knex writes it for this client. */
  readonly sql: string;
  /** The same SQL with the driver's own placeholders (`$1`... on PostgreSQL), as knex sends it. */
  readonly nativeSql: string;
  readonly method: QueryMethod;
  /** Bound values of a run, in placeholder order. */
  values(input: V): unknown[];
}

/** What running a compiled query needs besides its values: its SQL and what it does. */
export type CompiledStatement = Pick<CompiledQuery<unknown>, 'sql' | 'nativeSql' | 'method'>;

type Placeholder<V> = (read: (input: V) => unknown) => never;

/** A query compiled once per knex client; `V` is what a run is given, `R` what it answers. */
export class PreparedQuery<V, R> {
  /** Only for the type: what `ConnectionProvider.run()` answers. */
  declare readonly result: R;
  private readonly byClient = new WeakMap<object, CompiledQuery<V>>();

  constructor(private readonly build: (db: Knex, value: Placeholder<V>) => Knex.QueryBuilder | Knex.QueryInterface) {}

  compiledFor(knex: Knex): CompiledQuery<V> {
    let compiled = this.byClient.get(knex.client as object);
    if (!compiled) this.byClient.set(knex.client as object, (compiled = this.compile(knex)));
    return compiled;
  }

  private compile(knex: Knex): CompiledQuery<V> {
    const readers: ((input: V) => unknown)[] = [];
    const placeholder: Placeholder<V> = (read) => {
      readers.push(read);
      return `${MARK}${readers.length - 1}` as never;
    };
    const native = (this.build(knex, placeholder) as Knex.QueryBuilder).toSQL() as unknown as {
      sql: string;
      method: string;
      bindings: readonly unknown[];
    };
    if (native.sql.includes(MARK))
      throw new Error(`A prepared query placed a run-time value where knex writes it into the SQL: ${native.sql}`);
    if (!['select', 'first', 'insert', 'update', 'del'].includes(native.method)) {
      throw new Error(`A prepared query must select, insert, update or delete; knex says "${native.method}"`);
    }
    const used = new Set<number>();
    const slots = native.bindings.map((binding): ((input: V) => unknown) => {
      if (typeof binding === 'string' && binding.startsWith(MARK)) {
        const index = Number(binding.slice(MARK.length));
        used.add(index);
        const read = readers[index]!;
        return (input) => {
          const value = read(input);
          if (value === undefined)
            throw new Error(`A prepared query was run without a value for placeholder ${index}: ${native.sql}`);
          return value;
        };
      }
      return () => binding;
    });
    if (used.size !== readers.length)
      throw new Error(`A prepared query's run-time value was not bound by knex: ${native.sql}`);
    const client = knex.client as unknown as { positionBindings(sql: string): string };
    return {
      sql: native.sql,
      nativeSql: client.positionBindings(native.sql),
      method: native.method as QueryMethod,
      values: (input) => {
        const values = new Array<unknown>(slots.length);
        for (let i = 0; i < slots.length; i++) values[i] = slots[i]!(input);
        return values;
      },
    };
  }
}

/** A prepared query whose run-time values are named: `p('hash')` is `input.hash`. */
export function preparedQuery<P extends object, R>(
  build: (db: Knex, p: (name: keyof P & string) => never) => Knex.QueryBuilder | Knex.QueryInterface,
): PreparedQuery<P, R> {
  return new PreparedQuery<P, R>((db, value) => build(db, (name) => value((input) => input[name as keyof P])));
}

/**
 * A multi-row insert of `columns`, one compiled statement per row count (so a chunk size reuses
 * one), with an optional tail such as `.onConflict([...]).ignore()`. Answers the rows inserted.
 */
export class PreparedInsert<Row extends object> {
  private readonly byCount = new Map<number, PreparedQuery<readonly Row[], number>>();

  constructor(
    private readonly table: string,
    private readonly columns: readonly (keyof Row & string)[],
    private readonly tail: (insert: Knex.QueryBuilder) => Knex.QueryBuilder | Knex.QueryInterface = (insert) => insert,
  ) {}

  forRows(count: number): PreparedQuery<readonly Row[], number> {
    let query = this.byCount.get(count);
    if (!query) {
      query = new PreparedQuery<readonly Row[], number>((db, value) => {
        const rows = Array.from({ length: count }, (_, i) =>
          Object.fromEntries(this.columns.map((column) => [column, value((input) => input[i]![column] ?? null)])),
        );
        return this.tail(db(this.table).insert(rows));
      });
      this.byCount.set(count, query);
    }
    return query;
  }
}
