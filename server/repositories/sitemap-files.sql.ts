/**
 * Sitemap files of one kind of item (videos, audio tracks): items numbered by id, `perFile` ids
 * to a file (file n holds ids ((n-1)·perFile, n·perFile]), so an item stays in its file for good
 * and a file's content changes only when one of its items does. A file exists while it holds an
 * approved item; its date is the newest approval (or upload) in it.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** The tables paged this way, with their id column. */
const TABLES = { videos: 'video_id', audio_tracks: 'audio_id' } as const;
type PagedTable = keyof typeof TABLES;

/** The files that hold approved items, each with its newest change. */
export async function approvedIdRanges(
  db: Kysely<Database>,
  table: PagedTable,
  perFile: number,
): Promise<Array<{ file: number; updated: Date }>> {
  const file = sql<number>`(${sql.ref(TABLES[table])} - 1) / ${sql.lit(Math.floor(perFile))} + 1`;
  const { rows } = await sql<{
    file: number;
    updated: Date;
  }>`SELECT ${file} AS file, max(coalesce(reviewed_at, created_at)) AS updated
    FROM ${sql.table(table)} WHERE status = 'approved' GROUP BY 1 ORDER BY 1`.execute(db);
  return rows.map((r) => ({ file: Number(r.file), updated: new Date(r.updated) }));
}

/** The approved items of one file, by id, each with its last change. */
export async function approvedInFile(
  db: Kysely<Database>,
  table: PagedTable,
  file: number,
  perFile: number,
): Promise<Array<{ id: number; updated: Date }>> {
  const id = sql.ref(TABLES[table]);
  const { rows } = await sql<{
    id: number;
    updated: Date;
  }>`SELECT ${id} AS id, coalesce(reviewed_at, created_at) AS updated FROM ${sql.table(table)}
    WHERE status = 'approved' AND ${id} > ${(file - 1) * perFile} AND ${id} <= ${file * perFile} ORDER BY 1`.execute(
    db,
  );
  return rows.map((r) => ({ id: Number(r.id), updated: new Date(r.updated) }));
}
