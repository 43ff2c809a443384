/**
 * Keyset pages ordered by (created_at, id), newest first: the position of a row as exact
 * microseconds since the epoch (a JavaScript Date keeps only milliseconds, and two rows may share
 * one), and the condition "after this position" that an index on (…, created_at DESC, id DESC) serves.
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';

/** Where a page ends: the last row's creation time in microseconds since the epoch (as text), and its id. */
export interface KeysetPosition { micros: string; id: number }

/** SQL: the exact microseconds of `column` (timestamptz), as text. */
export const microsOf = (column: string) => sql<string>`(extract(epoch from ${sql.ref(column)}) * 1000000)::bigint::text`;

/** SQL: the row (created, id) comes after `position` in newest-first order. */
export function olderThan(createdColumn: string, idColumn: string, position: KeysetPosition): RawBuilder<SqlBool> {
  const at = sql`(timestamptz 'epoch' + ${position.micros}::float8 * interval '1 microsecond')`;
  return sql<SqlBool>`(${sql.ref(createdColumn)}, ${sql.ref(idColumn)}) < (${at}, ${position.id})`;
}
