/**
 * The scale seeder's rows (server/demo/scale-seed.ts): bulk writes of generated rows, through
 * COPY FROM STDIN on PostgreSQL (pg-copy-streams over its own connection, each table's indexes
 * built after its load) and through batched multi-row INSERTs on PGlite; the danmaku made inside
 * the database from a plan per video (`writeDanmaku`: nothing of them crosses the wire); the first
 * free ids of the tables it fills, the identity sequences moved past what it wrote, and the
 * statistics refreshed once it is done.
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
  ['danmaku', 'id'],
  ['comments', 'id'],
  ['collections', 'collection_id'],
] as const;
type SeededIds = Record<(typeof IDENTITIES)[number][0], number>;

/**
 * How the danmaku are made inside the database (`writeDanmaku`): the phrases, in pools of
 * `poolSize` (pool i is phrases[i * poolSize .. (i + 1) * poolSize - 1]), and who sends them.
 */
export interface DanmakuMaking {
  phrases: readonly string[];
  poolSize: number;
  /** The pools of what every audience types, of the opening seconds and of the high points. */
  sharedPool: number;
  openingPool: number;
  highlightPool: number;
  /** Languages' pools are 0 .. languages - 1. */
  languages: number;
  /** Senders: `members` members from `firstUid`, by Zipf's law of exponent `memberExponent` (below 1) over their order. */
  firstUid: number;
  members: number;
  memberExponent: number;
  colors: readonly string[];
  sizes: readonly string[];
  modes: readonly string[];
}
/** The danmaku of some videos (parallel lists, one entry a video). */
export interface DanmakuChunk {
  videoIds: number[];
  counts: number[];
  /** The video's length in seconds. */
  seconds: number[];
  /** When it was published and how long after that it has been on the site (ms). */
  createdMs: number[];
  spanMs: number[];
  /** The pool of the language of its audience. */
  languages: number[];
  /** Where its two high points are, as shares of its length. */
  highlights: number[];
  highlights2: number[];
  /** The id of its first danmaku (ids rise with the time they were sent). */
  firstIds: number[];
  /** setseed's argument (-1 to 1): the chunk is the same whichever connection makes it. */
  seed: number;
}

/** The connections the danmaku are made over at once (PostgreSQL), each taking the next chunk. */
const DANMAKU_STREAMS = 2;
/** Of the danmaku: the first seconds' share (in the first 3 % of the video), the high points', then what every audience types, then another language's. */
const OPENING_SHARE = 0.08;
const HIGHLIGHT_SHARE = 0.17;
const SHARED_SHARE = 0.2;
const OTHER_LANGUAGE_SHARE = 0.08;

/**
 * One chunk's danmaku, made by the database: per video `count` rows in the order they were sent
 * (ids and send times rising together, most soon after the video came out: the cube of a uniform
 * share of its time online), each at a point of the video (8 % in its first 3 %, 17 % around one
 * of its two high points, the rest anywhere), saying a phrase of the pool that fits (the opening's,
 * the high points', what everyone types, another language's, or mostly its audience's language),
 * white 70 % of the time. Per row only random() and arithmetic; no value crosses the wire.
 */
function danmakuInsert(m: DanmakuMaking, c: DanmakuChunk) {
  const opening = OPENING_SHARE;
  const highlight = opening + HIGHLIGHT_SHARE;
  const highlightFirst = opening + HIGHLIGHT_SHARE / 2;
  const shared = highlight + SHARED_SHARE;
  const other = shared + OTHER_LANGUAGE_SHARE;
  const inverse = 1 / (1 - m.memberExponent);
  const memberSpan = m.members ** (1 - m.memberExponent) - 1;
  const float = (x: number) => sql`${sql.lit(x)}::float8`;
  return sql`INSERT INTO danmaku (id, video_id, uid, time, text, color, font_size, mode, rainbow, created_at)
    SELECT p.first_id + r.g - 1, p.video_id,
      ${sql.lit(m.firstUid)}::bigint + least(${sql.lit(m.members - 1)}, floor(power(1 + random() * ${float(memberSpan)}, ${float(inverse)}))::bigint - 1),
      round(p.seconds * CASE WHEN r.kind < ${float(opening)} THEN r.kind * ${float(0.03 / opening)}
        WHEN r.kind < ${float(highlight)} THEN greatest(0, least(0.999,
          CASE WHEN r.kind < ${float(highlightFirst)} THEN p.high ELSE p.high2 END + (random() + random() - 1) * 0.015))
        ELSE random() END * 1000) / 1000,
      (${m.phrases}::text[])[${sql.lit(m.poolSize)} * CASE WHEN r.kind < ${float(opening)} THEN ${sql.lit(m.openingPool)}
        WHEN r.kind < ${float(highlight)} THEN ${sql.lit(m.highlightPool)} WHEN r.kind < ${float(shared)} THEN ${sql.lit(m.sharedPool)}
        WHEN r.kind < ${float(other)} THEN floor((r.kind - ${float(shared)}) * ${float(m.languages / (other - shared))})::int
        ELSE p.lang END + 1 + floor(random() * ${sql.lit(m.poolSize)})::int],
      CASE WHEN random() < 0.7 THEN 'ffffff' ELSE (${m.colors}::text[])[1 + floor(random() * ${sql.lit(m.colors.length)})::int] END,
      (${m.sizes}::text[])[1 + floor(random() * ${sql.lit(m.sizes.length)})::int],
      (${m.modes}::text[])[1 + floor(random() * ${sql.lit(m.modes.length)})::int],
      random() < 0.02,
      to_timestamp((p.created_ms + power((r.g - random()) / p.n, 3) * p.span_ms) / 1000)
    FROM unnest(${c.videoIds}::bigint[], ${c.counts}::int[], ${c.seconds}::float8[], ${c.createdMs}::float8[],
      ${c.spanMs}::float8[], ${c.languages}::int[], ${c.highlights}::float8[], ${c.highlights2}::float8[], ${c.firstIds}::bigint[])
      AS p(video_id, n, seconds, created_ms, span_ms, lang, high, high2, first_id)
    CROSS JOIN LATERAL (SELECT g, random() AS kind FROM generate_series(1, p.n) AS g OFFSET 0) r`;
}

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

interface DroppedIndex {
  name: string;
  /** CREATE INDEX as pg_get_indexdef writes it. */
  definition: string;
  /** The constraint the index was (then made again from the index), or none. */
  constraint: 'PRIMARY KEY' | 'UNIQUE' | null;
}

/**
 * As pg_restore does: drops the table's indexes that no foreign key relies on (its primary key too
 * when nothing references it), to be built again after the load by `buildIndex`, one sort each
 * instead of an index insert per row (the danmaku's covering index, the videos' GIN indexes, the
 * rankings' keys are most of a load's time otherwise).
 */
async function dropIndexes(c: pg.Client, table: SeedTable): Promise<DroppedIndex[]> {
  const { rows: dropped } = await c.query<DroppedIndex>(
    `SELECT i.relname AS name, pg_get_indexdef(i.oid) AS definition,
       CASE k.contype WHEN 'p' THEN 'PRIMARY KEY' WHEN 'u' THEN 'UNIQUE' END AS constraint
     FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
       LEFT JOIN pg_constraint k ON k.conindid = i.oid AND k.conrelid = x.indrelid AND k.contype IN ('p', 'u')
     WHERE x.indrelid = $1::regclass
       AND NOT EXISTS (SELECT 1 FROM pg_constraint f WHERE f.contype = 'f' AND f.conindid = i.oid)
     ORDER BY i.relname`,
    [table],
  );
  for (const index of dropped)
    await c.query(
      index.constraint
        ? `ALTER TABLE ${table} DROP CONSTRAINT ${pg.escapeIdentifier(index.name)}`
        : `DROP INDEX ${pg.escapeIdentifier(index.name)}`,
    );
  return dropped;
}

/**
 * Builds a dropped index again; a key's index first as a plain unique index (CREATE INDEX's lock
 * lets the table's other indexes build beside it, ALTER TABLE's would not), then made the
 * constraint again from it.
 */
async function buildIndex(c: pg.Client, table: SeedTable, index: DroppedIndex): Promise<void> {
  await c.query(index.definition);
  if (index.constraint) {
    const name = pg.escapeIdentifier(index.name);
    await c.query(`ALTER TABLE ${table} ADD CONSTRAINT ${name} ${index.constraint} USING INDEX ${name}`);
  }
}

export function createScaleSeedRepository(db: Kysely<Database>, options: { databaseUrl?: string }) {
  let client: pg.Client | null = null;
  let withoutTriggers = false;
  /** A connection of the load's (PostgreSQL only), its triggers off when it may. */
  async function loadClient(): Promise<pg.Client> {
    const opened = new pg.Client({ connectionString: options.databaseUrl });
    await opened.connect();
    // The rows are consistent by construction: as pg_restore --disable-triggers does, a
    // superuser's load skips the per-row foreign-key checks (the constraints stay; other roles check them).
    withoutTriggers = await opened.query('SET session_replication_role = replica').then(
      () => true,
      () => false,
    );
    await opened.query(`SET maintenance_work_mem = '${INDEX_BUILD_MEMORY}'`);
    return opened;
  }
  /** The connection COPY goes through, opened on first use. */
  async function copyClient(): Promise<pg.Client> {
    client ??= await loadClient();
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

    /** Whether `writeDanmaku` runs on connections of its own, beside `write` (PostgreSQL; PGlite has one). */
    loadsBeside(): boolean {
      return Boolean(options.databaseUrl);
    },

    /** The first id free in each table whose ids the seeder chooses. */
    async firstFreeIds(): Promise<SeededIds> {
      const { rows } = await sql<Record<string, number>>`SELECT ${sql.join(
        IDENTITIES.map(
          ([table, column]) =>
            sql`(SELECT coalesce(max(${sql.ref(column)}), 0) + 1 FROM ${sql.table(table)}) AS ${sql.ref(table)}`,
        ),
      )}`.execute(db);
      return Object.fromEntries(IDENTITIES.map(([table]) => [table, Number(rows[0][table])])) as SeededIds;
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
        // The indexes dropped and built after the load, in one transaction: another session
        // waits for the table and finds it whole, and a failed load leaves it as it was.
        await c.query('BEGIN');
        try {
          const built = await dropIndexes(c, table);
          const copy = c.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
          await pipeline(Readable.from(copyChunks(counted())), copy);
          const indexStarted = performance.now();
          for (const index of built) await buildIndex(c, table, index);
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

    /**
     * Makes the danmaku of the chunks' videos inside the database (`danmakuInsert`), each chunk
     * from its own seed. On PostgreSQL over DANMAKU_STREAMS connections of their own, so it runs
     * beside the seeder's other loads: the table's indexes are dropped first and built after, each
     * on a connection of its own at once. Not one transaction, unlike `write` (several connections
     * fill the table): a failed load builds the dropped indexes again and leaves the rows it made.
     * Answers the rows made and the milliseconds spent building the indexes (and, on PostgreSQL,
     * vacuuming the table after them).
     */
    async writeDanmaku(
      making: DanmakuMaking,
      chunks: readonly DanmakuChunk[],
    ): Promise<{ rows: number; indexMs: number; vacuumMs?: number }> {
      let rows = 0;
      if (!options.databaseUrl) {
        for (const chunk of chunks) {
          await sql`SELECT setseed(${chunk.seed})`.execute(db);
          rows += Number((await danmakuInsert(making, chunk).execute(db)).numAffectedRows ?? 0);
        }
        return { rows, indexMs: 0 };
      }
      const opened: pg.Client[] = [];
      const open = async () => {
        const c = await loadClient();
        opened.push(c);
        return c;
      };
      try {
        const streams = await Promise.all(Array.from({ length: DANMAKU_STREAMS }, open));
        const dropped = await dropIndexes(streams[0], 'danmaku');
        let indexStarted = 0;
        try {
          let next = 0;
          await Promise.all(
            streams.map(async (c) => {
              while (next < chunks.length) {
                const chunk = chunks[next++];
                await c.query('SELECT setseed($1)', [chunk.seed]);
                const { sql: text, parameters } = danmakuInsert(making, chunk).compile(db);
                const { rowCount } = await c.query(text, parameters as unknown[]);
                rows += rowCount ?? 0;
              }
            }),
          );
        } finally {
          indexStarted = performance.now();
          const builders = [...streams];
          while (builders.length < dropped.length) builders.push(await open());
          await Promise.all(dropped.map((index, i) => buildIndex(builders[i], 'danmaku', index)));
        }
        const indexMs = Math.round(performance.now() - indexStarted);
        // The visibility map the segment reads' index-only scans need, set now beside the other
        // loads; `analyze` at the end only finishes the pages a load then running still hid.
        const vacuumStarted = performance.now();
        await streams[0].query('VACUUM (ANALYZE) danmaku');
        return { rows, indexMs, vacuumMs: Math.round(performance.now() - vacuumStarted) };
      } finally {
        await Promise.all(opened.map((c) => c.end()));
      }
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
