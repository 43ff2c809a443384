/**
 * The scale seeder's rows (server/demo/scale-seed.ts): bulk writes of generated rows, through
 * COPY FROM STDIN on PostgreSQL (pg-copy-streams over its own connection, each table's indexes
 * built after its load) and through batched multi-row INSERTs on PGlite; the first free ids of the tables it fills, the identity sequences
 * moved past what it wrote, and the statistics refreshed once it is done.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Database } from '../db/schema.ts';

/** One value of a row: text, a number, a flag, a time, an integer array or nothing. */
export type SeedValue = string | number | boolean | Date | number[] | null;
/** The tables the seeder fills, with the columns it writes, in the order of the rows' values. */
export const SEED_TABLES = {
  users: ['uid', 'username', 'user_nickname', 'created_at', 'signature', 'interface_language'],
  tags: ['tag_id', 'created_by', 'created_at'],
  tag_names: ['tag_id', 'lang', 'name', 'name_lower', 'is_default', 'is_original'],
  uploads: [
    'id',
    'uid',
    'file_name',
    'size',
    'max_duration_seconds',
    'created_at',
    'expires_at',
    'finished_at',
    'media_id',
  ],
  media: [
    'media_id',
    'upload_id',
    'uid',
    'status',
    'duration_ms',
    'width',
    'height',
    'video_codec',
    'audio_codec',
    'frame_rate',
    'created_at',
    'renditions',
  ],
  videos: [
    'video_id',
    'uploader_uid',
    'title',
    'status',
    'created_at',
    'description',
    'category',
    'copyright',
    'push_to_feed',
    'duration_ms',
    'watched_count',
    'search_text',
    'reviewed_at',
    'comment_floor',
  ],
  video_parts: ['video_id', 'part_index', 'media_id'],
  video_tags: ['video_id', 'tag_id', 'position'],
  danmaku: ['video_id', 'uid', 'time', 'text', 'color', 'font_size', 'mode', 'rainbow', 'created_at'],
  comments: ['id', 'video_id', 'floor', 'uid', 'text', 'upvote_count', 'created_at', 'parent_id'],
  follows: ['follower_uid', 'followed_uid', 'created_at'],
  watch_history: ['uid', 'video_id', 'anchor', 'updated_at'],
  collections: ['collection_id', 'owner_uid', 'title', 'visibility', 'created_at', 'updated_at'],
  collection_videos: ['collection_id', 'video_id', 'position', 'added_at'],
  video_title_terms: ['term', 'bucket', 'video_id'],
  video_tag_ranks: ['tag_id', 'bucket', 'video_id'],
} as const;
export type SeedTable = keyof typeof SEED_TABLES;

/** Identity columns the seeder gives values to: their sequences move past the largest afterwards. */
const IDENTITIES = [
  ['users', 'uid'],
  ['tags', 'tag_id'],
  ['videos', 'video_id'],
  ['comments', 'id'],
  ['collections', 'collection_id'],
] as const;

/** Memory for the index builds after each table's COPY (the session's own; the server's default is 64 MB). */
const INDEX_BUILD_MEMORY = '512MB';

const DAY_MS = 86_400_000;
/** `YYYY-MM-DDT` of each day met, for timeText. */
const dayPrefixes = new Map<number, string>();
const twoDigits = (n: number) => (n < 10 ? `0${n}` : `${n}`);
/**
 * The time as toISOString writes it, ten times faster: a load writes tens of millions of times,
 * and toISOString was a third of the seeder's own work on the danmaku.
 */
function timeText(time: Date): string {
  const ms = time.getTime();
  const day = Math.floor(ms / DAY_MS);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    prefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
    dayPrefixes.set(day, prefix);
  }
  let rest = ms - day * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  return `${prefix}${twoDigits(hours)}:${twoDigits(minutes)}:${twoDigits(seconds)}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}

const ESCAPED = /[\\\t\n\r]/;
/** A value in COPY's text format (backslash escapes, \N for null). */
function copyText(value: SeedValue): string {
  if (typeof value === 'string')
    return ESCAPED.test(value)
      ? value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'))
      : value;
  if (typeof value === 'number') return String(value);
  if (value === null) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (value instanceof Date) return timeText(value);
  return `{${value.join(',')}}`;
}

/** Rows in COPY text format, about 256 KiB a chunk. */
async function* copyChunks(rows: Iterable<SeedValue[]>): AsyncGenerator<string> {
  let chunk = '';
  for (const row of rows) {
    let line = copyText(row[0]);
    for (let i = 1; i < row.length; i += 1) line += `\t${copyText(row[i])}`;
    chunk += `${line}\n`;
    if (chunk.length > 262_144) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

export function createScaleSeedRepository(db: Kysely<Database>, options: { databaseUrl?: string }) {
  let client: pg.Client | null = null;
  let withoutTriggers = false;
  /** The connection COPY goes through (PostgreSQL only), opened on first use. */
  async function copyClient(): Promise<pg.Client> {
    if (!client) {
      client = new pg.Client({ connectionString: options.databaseUrl });
      await client.connect();
      // The rows are consistent by construction: as pg_restore --disable-triggers does, a
      // superuser's load skips the per-row foreign-key checks (the constraints stay; other roles check them).
      withoutTriggers = await client.query('SET session_replication_role = replica').then(
        () => true,
        () => false,
      );
      await client.query(`SET maintenance_work_mem = '${INDEX_BUILD_MEMORY}'`);
    }
    return client;
  }

  return {
    /**
     * Whether the rows are written without the tables' triggers (PostgreSQL as a superuser): then
     * the seeder writes what triggers would (the search rankings) itself.
     */
    async writesWithoutTriggers(): Promise<boolean> {
      if (!options.databaseUrl) return false;
      await copyClient();
      return withoutTriggers;
    },

    /** The first id free in each table whose ids the seeder chooses. */
    async firstFreeIds(): Promise<Record<'users' | 'tags' | 'videos' | 'comments' | 'collections', number>> {
      const { rows } = await sql<Record<string, number>>`SELECT
        (SELECT coalesce(max(uid), 0) + 1 FROM users) AS users, (SELECT coalesce(max(tag_id), 0) + 1 FROM tags) AS tags,
        (SELECT coalesce(max(video_id), 0) + 1 FROM videos) AS videos, (SELECT coalesce(max(id), 0) + 1 FROM comments) AS comments,
        (SELECT coalesce(max(collection_id), 0) + 1 FROM collections) AS collections`.execute(db);
      const row = rows[0];
      return {
        users: Number(row.users),
        tags: Number(row.tags),
        videos: Number(row.videos),
        comments: Number(row.comments),
        collections: Number(row.collections),
      };
    },

    /**
     * Writes the rows into `table` (COPY on PostgreSQL, INSERTs of up to 60 000 values on PGlite);
     * answers how many, and the milliseconds spent building its indexes after the COPY.
     */
    async write(table: SeedTable, rows: Iterable<SeedValue[]>): Promise<{ rows: number; indexMs: number }> {
      const columns = SEED_TABLES[table];
      let count = 0;
      const counted = function* () {
        for (const row of rows) {
          count += 1;
          yield row;
        }
      };
      if (options.databaseUrl) {
        const c = await copyClient();
        // As pg_restore does: the table's indexes that no foreign key relies on are dropped and
        // built again after the load, one sort each instead of an index insert per row (the
        // danmaku's covering index, the videos' GIN indexes, the rankings' keys are most of a
        // load's time otherwise). In one transaction: another session waits for the table and
        // finds it whole, and a failed load leaves it as it was.
        await c.query('BEGIN');
        try {
          const { rows: built } = await c.query<{ name: string; definition: string; constraint: boolean }>(
            `SELECT i.relname AS name, coalesce(pg_get_constraintdef(k.oid), pg_get_indexdef(i.oid)) AS definition,
               k.oid IS NOT NULL AS constraint
             FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
               LEFT JOIN pg_constraint k ON k.conindid = i.oid AND k.conrelid = x.indrelid AND k.contype IN ('p', 'u')
             WHERE x.indrelid = $1::regclass
               AND NOT EXISTS (SELECT 1 FROM pg_constraint f WHERE f.contype = 'f' AND f.conindid = i.oid)
             ORDER BY i.relname`,
            [table],
          );
          for (const index of built)
            await c.query(
              index.constraint
                ? `ALTER TABLE ${table} DROP CONSTRAINT ${pg.escapeIdentifier(index.name)}`
                : `DROP INDEX ${pg.escapeIdentifier(index.name)}`,
            );
          const copy = c.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
          await pipeline(Readable.from(copyChunks(counted())), copy);
          const indexStarted = performance.now();
          for (const index of built)
            await c.query(
              index.constraint
                ? `ALTER TABLE ${table} ADD CONSTRAINT ${pg.escapeIdentifier(index.name)} ${index.definition}`
                : index.definition,
            );
          await c.query('COMMIT');
          return { rows: count, indexMs: Math.round(performance.now() - indexStarted) };
        } catch (error) {
          await c.query('ROLLBACK').catch(() => {});
          throw error;
        }
      }
      const perStatement = Math.floor(60_000 / columns.length);
      let batch: SeedValue[][] = [];
      const flush = async () => {
        if (!batch.length) return;
        const values = batch.map(
          (row) =>
            sql`(${sql.join(row.map((v) => (Array.isArray(v) ? sql`${sql.lit(`{${v.join(',')}}`)}::integer[]` : sql`${v}`)))})`,
        );
        await sql`INSERT INTO ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) VALUES ${sql.join(values)}`.execute(
          db,
        );
        batch = [];
      };
      for (const row of counted()) {
        batch.push(row);
        if (batch.length >= perStatement) await flush();
      }
      await flush();
      return { rows: count, indexMs: 0 };
    },

    /** Moves each identity sequence past the largest id written, so the site's own inserts go on after them. */
    async advanceIdentities(): Promise<void> {
      for (const [table, column] of IDENTITIES) {
        await sql`SELECT setval(pg_get_serial_sequence(${table}, ${column}), (SELECT coalesce(max(${sql.ref(column)}), 1) FROM ${sql.table(table)}))`.execute(
          db,
        );
      }
    },

    /**
     * The kept comment counts of the videos from `firstVideoId` on (each head's live replies and
     * each video's shown threads, migration 0037): triggers keep them, but a superuser's COPY runs
     * without them. Both are recounted, so rows a trigger already wrote end the same.
     */
    async fillCommentCounts(firstVideoId: number): Promise<void> {
      await sql`UPDATE comments h SET live_replies = r.n
        FROM (SELECT parent_id, count(*)::int AS n FROM comments
          WHERE parent_id IS NOT NULL AND deleted_at IS NULL AND target_type = 'video' AND video_id >= ${firstVideoId} GROUP BY 1) r
        WHERE h.id = r.parent_id AND h.live_replies <> r.n`.execute(db);
      await sql`INSERT INTO comment_thread_counts AS k (target_type, target_id, threads)
        SELECT 'video', video_id, count(*) FROM comments
        WHERE target_type = 'video' AND video_id >= ${firstVideoId} AND parent_id IS NULL AND (deleted_at IS NULL OR live_replies > 0)
        GROUP BY 2
        ON CONFLICT (target_type, target_id) DO UPDATE SET threads = EXCLUDED.threads`.execute(db);
    },

    /** Fresh statistics (and, on PostgreSQL, the visibility map index-only scans need) for the planner. */
    async analyze(): Promise<void> {
      if (options.databaseUrl) {
        const tables = Object.keys(SEED_TABLES).join(', ');
        await (await copyClient()).query(`VACUUM (ANALYZE) ${tables}`);
      } else {
        await sql`ANALYZE`.execute(db);
      }
    },

    async close(): Promise<void> {
      await client?.end();
      client = null;
    },
  };
}
export type ScaleSeedRepository = ReturnType<typeof createScaleSeedRepository>;
