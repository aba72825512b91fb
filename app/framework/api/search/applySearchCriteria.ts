/**
 * Applies checked SearchCriteria to a knex query: filter groups (OR inside, AND across), sort
 * orders, the page, and the count of every match. Values are always bound, never spliced; field
 * names reach SQL only through the repository's whitelist (`columns`), as identifiers.
 *
 * Same answers on SQLite, MySQL/MariaDB and PostgreSQL:
 * * text compares case-insensitively for every condition (eq, in, like, finset, gt...), as on
 *   Magento's default MySQL collation, but accent- and space-sensitively: `lower(column)` against
 *   the lower-cased value, in code-point order (bytes on MySQL, whose binary collation pads
 *   trailing spaces, `"C"` on PostgreSQL; SQLite's `lower()` is the runtime's Unicode one, see
 *   dialect.ts);
 * * `like` keeps `%` and `_` as wildcards and `\` as their escape on all three; a `\` that ends
 *   the pattern (escaping nothing) is a literal backslash, as MySQL (Magento's database) reads it,
 *   where PostgreSQL would refuse the pattern (22025);
 * * text sorts case-insensitively in code-point order; NULLs sort first ascending (MySQL's rule);
 *   the primary key breaks ties, so pages never overlap.
 */
import type { Knex } from 'knex';
import { binaryCollation, comparesPadded, concatSql, likeEscapeClause, type Dialect } from '../../db/dialect.js';
import type { Filter, SearchCriteria, SearchFields } from './SearchCriteria.js';

export interface SearchColumn {
  /** The column (may be qualified: `p.sku`). */
  readonly column: string;
  /** Sorting puts NULLs first ascending on every database (only nullable columns pay for it). */
  readonly nullable?: boolean;
}

export interface SearchOptions {
  readonly fields: SearchFields;
  /** Every field of `fields`, to its column. */
  readonly columns: Readonly<Record<string, SearchColumn>>;
  readonly dialect: Dialect;
  /** Unique column appended to every sort (deterministic pages). */
  readonly tieBreaker: string;
}

const COMPARISON: Record<string, string> = {
  eq: '=',
  moreq: '=',
  neq: '<>',
  gt: '>',
  gteq: '>=',
  from: '>=',
  lt: '<',
  lteq: '<=',
  to: '<=',
};

/** `a\` -> `a\\`: a trailing escape escaping nothing matches a backslash (MySQL's reading) on every database. */
export function closeTrailingEscape(pattern: string): string {
  let trailing = 0;
  while (trailing < pattern.length && pattern[pattern.length - 1 - trailing] === '\\') trailing++;
  return trailing % 2 === 1 ? `${pattern}\\` : pattern;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Every filter as `(sql, bindings)`; the group's filters are ORed. */
function filterSql(filter: Filter, options: SearchOptions): [string, unknown[]] {
  const column = options.columns[filter.field]!.column;
  const type = options.fields[filter.field]!;
  const text = type === 'text';
  const collate = binaryCollation(options.dialect);
  // MySQL's binary collation still pads (`'a' = 'a '`): equality and order compare bytes there.
  const bytes = comparesPadded(options.dialect);
  const target = text ? (bytes ? 'CAST(lower(??) AS BINARY)' : `lower(??)${collate}`) : '??';
  const mark = text && bytes ? 'CAST(? AS BINARY)' : '?';
  const value = (v: unknown) => (text && typeof v === 'string' ? v.toLowerCase() : v);
  switch (filter.conditionType) {
    case 'null':
      return ['?? IS NULL', [column]];
    case 'notnull':
      return ['?? IS NOT NULL', [column]];
    case 'in':
    case 'nin': {
      const marks = filter.values.map(() => mark).join(', ');
      return [
        `${target} ${filter.conditionType === 'in' ? 'IN' : 'NOT IN'} (${marks})`,
        [column, ...filter.values.map(value)],
      ];
    }
    case 'like':
    case 'nlike': {
      // Wildcards stay the client's; only the case is folded.
      const pattern = closeTrailingEscape(text ? String(filter.values[0]).toLowerCase() : String(filter.values[0]));
      // LIKE never pads, and on bytes `_` would match a byte: the binary collation it is.
      const subject = text ? `lower(??)${collate}` : '??';
      return [
        `${subject} ${filter.conditionType === 'like' ? 'LIKE' : 'NOT LIKE'} ?${likeEscapeClause(options.dialect)}`,
        [column, pattern],
      ];
    }
    case 'finset':
    case 'nfinset': {
      // FIND_IN_SET(value, column) on every database: the value is one element of the comma list.
      const element = String(filter.values[0]).toLowerCase();
      const negate = filter.conditionType === 'nfinset';
      // A value with a comma is never an element (FIND_IN_SET answers 0); NULL stays unknown either way.
      if (element.includes(',')) return [negate ? '?? IS NOT NULL' : '1 = 0', negate ? [column] : []];
      const list = `${concatSql(options.dialect, "','", 'lower(??)', "','")}${collate}`;
      return [
        `${negate ? 'NOT ' : ''}${list} LIKE ?${likeEscapeClause(options.dialect)}`,
        [column, `%,${escapeLike(element)},%`],
      ];
    }
    default:
      return [`${target} ${COMPARISON[filter.conditionType]} ${mark}`, [column, value(filter.values[0])]];
  }
}

function applyFilters(query: Knex.QueryBuilder, criteria: SearchCriteria, options: SearchOptions): void {
  for (const group of criteria.filterGroups) {
    const parts = group.filters.map((f) => filterSql(f, options));
    const sql = parts.map(([s]) => `(${s})`).join(' OR ');
    query.whereRaw(`(${sql})`, parts.flatMap(([, b]) => b) as Knex.RawBinding[]);
  }
}

function applyOrder(query: Knex.QueryBuilder, criteria: SearchCriteria, options: SearchOptions): void {
  const collate = binaryCollation(options.dialect);
  for (const sort of criteria.sortOrders) {
    const { column, nullable } = options.columns[sort.field]!;
    const direction = sort.direction === 'ASC' ? 'ASC' : 'DESC';
    if (nullable) query.orderByRaw(`CASE WHEN ?? IS NULL THEN 0 ELSE 1 END ${direction}`, [column]);
    if (options.fields[sort.field] === 'text' && comparesPadded(options.dialect)) {
      query.orderByRaw(`CAST(lower(??) AS BINARY) ${direction}, CAST(?? AS BINARY) ${direction}`, [column, column]);
    } else if (options.fields[sort.field] === 'text')
      query.orderByRaw(`lower(??)${collate} ${direction}, ??${collate} ${direction}`, [column, column]);
    else query.orderByRaw(`?? ${direction}`, [column]);
  }
  query.orderByRaw('?? ASC', [options.tieBreaker]);
}

/**
 * Runs `query` (already scoped, e.g. to the caller's store, and selecting its columns) with the
 * criteria: the page of rows, and the count of every match.
 */
export async function runSearch<Row>(
  query: Knex.QueryBuilder,
  criteria: SearchCriteria,
  options: SearchOptions,
): Promise<{ rows: Row[]; total: number }> {
  applyFilters(query, criteria, options);
  const counted = (await query.clone().clearSelect().clearOrder().count({ total: '*' }).first()) as
    { total: number | string } | undefined;
  const total = Number(counted?.total ?? 0);
  const offset = (criteria.currentPage - 1) * criteria.pageSize;
  if (total === 0 || offset >= total) return { rows: [], total };
  applyOrder(query, criteria, options);
  const rows = (await query.limit(criteria.pageSize).offset(offset)) as Row[];
  return { rows, total };
}
