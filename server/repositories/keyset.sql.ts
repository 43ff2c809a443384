/**
 * Keyset pages ordered by (created_at, id), newest first: the position of a row as exact
 * microseconds since the epoch (a JavaScript Date keeps only milliseconds, and two rows may share
 * one), and the condition "after this position" that an index on (…, created_at DESC, id DESC) serves.
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';

/** Where a page ends: the last row's creation time in microseconds since the epoch (as text), and its id. */
export interface KeysetPosition {
  micros: string;
  id: number;
}

/** SQL: the exact microseconds of `column` (timestamptz), as text. */
export const microsOf = (column: string) =>
  sql<string>`(extract(epoch from ${sql.ref(column)}) * 1000000)::bigint::text`;

/** SQL: the row (created, id) comes after `position` in newest-first order. */
export function olderThan(createdColumn: string, idColumn: string, position: KeysetPosition): RawBuilder<SqlBool> {
  const at = sql`(timestamptz 'epoch' + ${position.micros}::float8 * interval '1 microsecond')`;
  return sql<SqlBool>`(${sql.ref(createdColumn)}, ${sql.ref(idColumn)}) < (${at}, ${position.id})`;
}

/**
 * The feed holds videos, tracks and photo posts in one newest-first order: by creation time,
 * then (at the same microsecond) videos, tracks, posts, then by id. A feed position says which
 * kind its last row was (a cursor from before tracks and posts were in the feed: a video).
 */
export const FEED_KINDS = ['video', 'audio', 'photo'] as const;
export type FeedKind = (typeof FEED_KINDS)[number];
export interface FeedPosition extends KeysetPosition {
  kind?: FeedKind;
}

/** SQL: a row of `kind` comes after `position` in the feed's order. */
export function olderInFeed(
  createdColumn: string,
  idColumn: string,
  position: FeedPosition,
  kind: FeedKind,
): RawBuilder<SqlBool> {
  const rank = FEED_KINDS.indexOf(kind);
  const positionRank = FEED_KINDS.indexOf(position.kind ?? 'video');
  if (rank === positionRank) return olderThan(createdColumn, idColumn, position);
  const at = sql`(timestamptz 'epoch' + ${position.micros}::float8 * interval '1 microsecond')`;
  return rank > positionRank
    ? sql<SqlBool>`${sql.ref(createdColumn)} <= ${at}`
    : sql<SqlBool>`${sql.ref(createdColumn)} < ${at}`;
}
