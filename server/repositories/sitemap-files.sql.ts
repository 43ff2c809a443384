/**
 * Sitemap files of one kind of item (videos, audio tracks): items numbered by id, `perFile` ids
 * to a file (file n holds ids ((n-1)·perFile, n·perFile]), so an item stays in its file for good
 * and a file's content changes only when one of its items does. A file exists while it holds an
 * approved item; its date is the newest approval (or upload) in it.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { SITEMAP_VIDEOS_PER_FILE } from '../../src/lib/navigation/sitemap.ts';

/** The tables paged this way, with their id column. */
const TABLES = { videos: 'video_id', audio_tracks: 'audio_id' } as const;
type PagedTable = keyof typeof TABLES;

/** The file size the sitemap indexes are built for (migration 0039). */
const INDEXED_PER_FILE = SITEMAP_VIDEOS_PER_FILE;

/**
 * The files that hold approved items, each with its newest change. At the indexed file size, a
 * skip scan of the file-and-date index: the next file is the first entry past the last one, its
 * date the last entry of its own group, so 500 files cost about 1 000 index descents whatever the
 * number of items (a grouping read every approved item: 467 ms at 1 000 000 videos). Any other
 * size, which that index cannot serve, groups every item as before.
 */
export async function approvedIdRanges(
  db: Kysely<Database>,
  table: PagedTable,
  perFile: number,
): Promise<Array<{ file: number; updated: Date }>> {
  const size = Math.floor(perFile);
  // Written as the index's expression, with the size a literal, so the planner matches it.
  const fileIndex = sql<number>`(${sql.ref(TABLES[table])} - 1) / ${sql.lit(size)}`;
  const items = sql.table(table);
  const { rows } =
    size === INDEXED_PER_FILE
      ? await sql<{ file: number; updated: Date }>`WITH RECURSIVE files (n) AS (
          (SELECT ${fileIndex} FROM ${items} WHERE status = 'approved' ORDER BY 1 LIMIT 1)
          UNION ALL
          SELECT (SELECT ${fileIndex} FROM ${items} WHERE status = 'approved' AND ${fileIndex} > files.n ORDER BY 1 LIMIT 1)
          FROM files WHERE files.n IS NOT NULL
        )
        SELECT n + 1 AS file, (SELECT max(coalesce(reviewed_at, created_at)) FROM ${items}
          WHERE status = 'approved' AND ${fileIndex} = files.n) AS updated
        FROM files WHERE n IS NOT NULL ORDER BY n`.execute(db)
      : await sql<{
          file: number;
          updated: Date;
        }>`SELECT ${fileIndex} + 1 AS file, max(coalesce(reviewed_at, created_at)) AS updated
          FROM ${items} WHERE status = 'approved' GROUP BY 1 ORDER BY 1`.execute(db);
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
