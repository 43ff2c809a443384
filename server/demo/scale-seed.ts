/**
 * The scale seeder (issue 30): a catalogue the size of a real community, written in bulk
 * (`npm run cli -- seed:scale …`, bench/scale.ts). Members, multilingual tags, videos over a
 * year with titles and descriptions in the nine languages, each with one ready media row (no
 * files: every media row names the same two renditions), danmaku, comments with replies, follows,
 * watch history and collections. Popularity is Zipf-distributed: uploads per member, views,
 * danmaku and comments per video, tags, and what members watch and follow, so a few uploaders
 * and videos are huge and most are small. Mostly approved (1 in 25 pending, 1 in 100 deleted).
 * Reproducible from its seed. The rows are written by scale-seed.repository.ts (COPY on
 * PostgreSQL, batched INSERTs on PGlite) in one pass per table.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import {
  createScaleSeedRepository,
  type DanmakuChunk,
  type SeedTable,
  type SeedValue,
} from '../repositories/scale-seed.repository.ts';
import { titleTermsOf } from '../repositories/search-walk.sql.ts';
import { searchTextOf } from '../services/videos.ts';
import { danmakuPoolCap } from '../services/danmaku.ts';
import { VIDEO_CATEGORIES } from '../../src/lib/api/contracts/video.constants.ts';
import {
  ADJECTIVES,
  COMMENTS,
  DANMAKU_BY_LANG,
  DANMAKU_HIGHLIGHT,
  DANMAKU_OPENING,
  DANMAKU_POOL_SIZE,
  DANMAKU_SHARED,
  DESCRIPTIONS,
  NICKNAMES,
  NOUNS,
  SEED_LANGS,
  TITLES,
  phrase,
  type SeedLang,
} from './scale-vocabulary.ts';

export interface ScaleSeedOptions {
  videos: number;
  users: number;
  /** The mean; per video it follows Zipf's law, at most `maxDanmakuPerVideo`. */
  danmakuPerVideo: number;
  /** The mean; per video it follows Zipf's law, at most `maxCommentsPerVideo`. */
  commentsPerVideo: number;
  /** The mean; the first seeded member (the reader) follows min(1000, users - 1). */
  followsPerUser: number;
  historyPerUser: number;
  maxDanmakuPerVideo?: number;
  maxCommentsPerVideo?: number;
  seed?: number;
}
export interface ScaleSeedReport {
  /** Rows written and milliseconds, per table (of which `indexMs` building its indexes after the load, `vacuumMs` vacuuming it then). */
  tables: Partial<Record<SeedTable, { rows: number; ms: number; indexMs: number; vacuumMs?: number }>>;
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  analyzeSeconds: number;
  /** Ids the benches ask for: the reader (1000 follows), the biggest uploader, the videos with the most danmaku and comments. */
  landmarks: {
    readerUid: number;
    readerFollows: number;
    biggestUploaderUid: number;
    biggestUploaderVideos: number;
    mostDanmakuVideoId: number;
    mostDanmaku: number;
    mostCommentsVideoId: number;
    mostComments: number;
    firstVideoId: number;
    lastVideoId: number;
  };
}

const DAY_MS = 86_400_000;
/** The shortest length whose pool is the largest (danmakuPoolCap: past 40 minutes). */
const LONGEST_POOL_MS = 2_401_000;
const YEAR_MS = 365 * DAY_MS;
const COLORS = ['fe0302', 'ffff00', '00cd00', '89d5ff', 'f06e8e', 'cc0273'];
const MODES = ['rtl', 'rtl', 'rtl', 'rtl', 'top', 'bottom', 'ltr'] as const;
const SIZES = ['small', 'medium', 'medium', 'large'] as const;
/** The exponent of Zipf's law over the members who send danmaku, write comments and watch. */
const MEMBER_EXPONENT = 0.8;
/** About how many danmaku one statement makes (one chunk of the plan). */
const DANMAKU_CHUNK_ROWS = 1_000_000;

/** A small, fast, seeded generator (mulberry32). */
function randomFrom(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Zipf over `n` ranks (exponent `s`): draws a rank (0 = the most popular), and the share of each rank. */
function zipf(n: number, s: number, rand: () => number) {
  const cdf = new Float64Array(n);
  let total = 0;
  for (let r = 0; r < n; r += 1) cdf[r] = total += 1 / (r + 1) ** s;
  for (let r = 0; r < n; r += 1) cdf[r] /= total;
  return {
    draw(): number {
      const u = rand();
      let lo = 0;
      let hi = n - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cdf[mid] < u) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    },
    share: (rank: number) => (rank === 0 ? cdf[0] : cdf[rank] - cdf[rank - 1]),
  };
}

/** 0..n-1 in a random order: rank r of a Zipf list is item order[r], so popularity is not tied to age. */
function shuffled(n: number, rand: () => number): Int32Array {
  const order = new Int32Array(n);
  for (let i = 0; i < n; i += 1) order[i] = i;
  for (let i = n - 1; i > 0; i -= 1) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/**
 * Per-item counts with mean `mean` over `n` items, Zipf-shaped by rank (item order[r] has rank r,
 * shuffled unless given), each at most `cap`. What the cap takes off the head is spread over the
 * rest in proportion (the ranks below the cap scaled up alike), so the mean is the one asked for
 * (1 000 000 videos at 100 danmaku are 100 000 000 danmaku, not the 69 M a plain cap leaves).
 */
function zipfCounts(n: number, mean: number, cap: number, rand: () => number, order = shuffled(n, rand)): Int32Array {
  const { share } = zipf(n, 1, rand);
  const total = mean * n;
  const capped = (scale: number) => {
    let sum = 0;
    for (let r = 0; r < n; r += 1) sum += Math.min(cap, scale * total * share(r));
    return sum;
  };
  let scale = 1;
  if (cap * n <= total) scale = Number.POSITIVE_INFINITY;
  else if (capped(1) < total) {
    let low = 1;
    let high = 2;
    while (capped(high) < total) high *= 2;
    for (let step = 0; step < 50; step += 1) {
      const mid = (low + high) / 2;
      if (capped(mid) < total) low = mid;
      else high = mid;
    }
    scale = high;
  }
  const counts = new Int32Array(n);
  for (let r = 0; r < n; r += 1) {
    const exact = Math.min(cap, scale * total * share(r));
    counts[order[r]] = Math.floor(exact) + (rand() < exact % 1 ? 1 : 0);
  }
  return counts;
}

const pick = <T>(list: readonly T[], rand: () => number): T => list[Math.floor(rand() * list.length)];
const fill = (template: string, words: Record<string, string | number>) =>
  template.replace(/\{(\w)\}/g, (_, key: string) => String(words[key]));
const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

export async function seedScale(
  db: Kysely<Database>,
  target: { databaseUrl?: string },
  options: ScaleSeedOptions,
  onProgress: (line: string) => void = () => {},
): Promise<ScaleSeedReport> {
  const { videos: V, users: U } = options;
  if (!(V >= 1 && U >= 2)) throw new Error('seed:scale needs at least 1 video and 2 users');
  const rand = randomFrom(options.seed ?? 30);
  const repo = createScaleSeedRepository(db, target);
  const started = performance.now();
  const tables: ScaleSeedReport['tables'] = {};
  const timed = async (table: SeedTable, load: () => Promise<{ rows: number; indexMs: number; vacuumMs?: number }>) => {
    const t0 = performance.now();
    const { rows: count, indexMs, vacuumMs } = await load();
    const ms = Math.round(performance.now() - t0);
    tables[table] = { rows: count, ms, indexMs, ...(vacuumMs === undefined ? {} : { vacuumMs }) };
    const vacuumed = vacuumMs === undefined ? '' : `, vacuumed in ${(vacuumMs / 1000).toFixed(1)} s`;
    onProgress(
      `${table}: ${count} rows in ${(ms / 1000).toFixed(1)} s (${Math.round((count / Math.max(ms, 1)) * 1000)} rows/s; indexes built after in ${(indexMs / 1000).toFixed(1)} s${vacuumed})`,
    );
  };
  const write = (table: SeedTable, rows: Iterable<SeedValue[]>) => timed(table, () => repo.write(table, rows));
  let danmaku: Promise<void> | null = null;
  try {
    const first = await repo.firstFreeIds();
    const now = Date.now();
    const yearAgo = now - YEAR_MS;
    const uidOf = (i: number) => first.users + i;
    const videoIdOf = (i: number) => first.videos + i;
    const langOfUser = (i: number): SeedLang => SEED_LANGS[(i * 7 + 3) % SEED_LANGS.length];

    // Members: one a few minutes apart over the year (the reader first).
    await write(
      'users',
      (function* () {
        for (let i = 0; i < U; i += 1) {
          const lang = langOfUser(i);
          const nickname = `${pick(NICKNAMES[lang], rand)}${i % 97}`;
          yield [
            uidOf(i),
            i === 0 ? `scale_reader_${uidOf(i)}` : `member_${uidOf(i)}`,
            nickname,
            new Date(yearAgo + (i / U) * YEAR_MS * 0.5),
            '',
            lang,
          ];
        }
      })(),
    );

    // Tags: one per 50 videos (at least 50), each named in its own language and translated into one to three others.
    const T = Math.max(50, Math.ceil(V / 50));
    const tagIdOf = (i: number) => first.tags + i;
    await write(
      'tags',
      (function* () {
        for (let i = 0; i < T; i += 1) yield [tagIdOf(i), uidOf(i % U), new Date(yearAgo + (i / T) * YEAR_MS)];
      })(),
    );
    const concepts = NOUNS.en.length * (1 + ADJECTIVES.en.length);
    const tagName = (concept: number, lang: SeedLang, round: number) => {
      const noun = NOUNS[lang][concept % NOUNS.en.length];
      const adjective = Math.floor(concept / NOUNS.en.length);
      const name = adjective ? phrase(lang, ADJECTIVES[lang][adjective - 1], noun) : noun;
      return round ? `${name} ${round + 1}` : name;
    };
    await write(
      'tag_names',
      (function* () {
        for (let i = 0; i < T; i += 1) {
          const original = SEED_LANGS[i % SEED_LANGS.length];
          const slot = Math.floor(i / SEED_LANGS.length);
          const concept = slot % concepts;
          const round = Math.floor(slot / concepts);
          const langs = new Set<SeedLang>([original]);
          const more = 1 + Math.floor(rand() * 3);
          while (langs.size < 1 + more) langs.add(pick(SEED_LANGS, rand));
          for (const lang of langs) {
            const name = tagName(concept, lang, round);
            yield [tagIdOf(i), lang, name, name.normalize('NFKC').toLowerCase(), true, lang === original];
          }
        }
      })(),
    );

    // Videos: uploaders by Zipf (the biggest has about V / ln U), created in id order over the year.
    const uploaders = zipf(U, 1, rand);
    const uploaderOrder = shuffled(U, rand);
    const uploaderOf = new Int32Array(V);
    const uploadsBy = new Int32Array(U);
    for (let v = 0; v < V; v += 1) {
      // The reader uploads nothing (it only reads).
      let u = uploaderOrder[uploaders.draw()];
      while (u === 0) u = uploaderOrder[uploaders.draw()];
      uploaderOf[v] = u;
      uploadsBy[u] += 1;
    }
    const createdAt = (v: number) => yearAgo + (v / V) * YEAR_MS * 0.999 + Math.floor(rand() * 60_000);
    const videoTime = new Float64Array(V);
    for (let v = 0; v < V; v += 1) videoTime[v] = createdAt(v);
    const durationMs = new Int32Array(V);
    for (let v = 0; v < V; v += 1) durationMs[v] = 30_000 + Math.floor(rand() ** 2 * 1_170_000);
    const status = (v: number) => (v % 100 === 37 ? 'deleted' : v % 25 === 11 ? 'pending' : 'approved');
    // What is watched most has the most views and appears in the most histories (the same ranks).
    const viewOrder = shuffled(V, rand);
    const views = zipfCounts(V, 2000, 5_000_000, rand, viewOrder);
    const danmakuCounts = zipfCounts(V, options.danmakuPerVideo, options.maxDanmakuPerVideo ?? 50_000, rand);
    // A pool holds danmakuPoolCap(length) danmaku (sends trim it, reads serve no more: decision
    // 0034): a video with more than its length's pool is made as long as the longest pool's (40 to
    // 160 minutes), so the busiest ones are the long videos a real site's would be.
    for (let v = 0; v < V; v += 1) {
      if (danmakuCounts[v] > danmakuPoolCap(durationMs[v] / 1000))
        durationMs[v] = LONGEST_POOL_MS + ((v * 7919) % 7_200_000);
    }
    const commentCounts = zipfCounts(V, options.commentsPerVideo, options.maxCommentsPerVideo ?? 20_000, rand);
    // The search rankings' popularity step (the database's search_bucket: the view count's bit length).
    const bucketOf = (v: number) => 32 - Math.clz32(views[v]);
    // Without triggers (COPY as a superuser) the seeder writes the search rankings itself (below),
    // from each approved video's title line and tags, kept here as they are made.
    const rankingsByHand = await repo.writesWithoutTriggers();

    // Danmaku: made inside the database from a plan per video (scale-seed.repository.ts:
    // danmakuInsert), chunks of about DANMAKU_CHUNK_ROWS. Without triggers (no foreign-key check
    // waits for a video or member not written yet) they start now, on PostgreSQL beside the other
    // tables' loads; else after the videos.
    const danmakuChunks: DanmakuChunk[] = [];
    {
      let nextId = first.danmaku;
      let chunk: DanmakuChunk | null = null;
      let chunkRows = 0;
      for (let v = 0; v < V; v += 1) {
        if (!danmakuCounts[v]) continue;
        if (!chunk || chunkRows >= DANMAKU_CHUNK_ROWS) {
          const h = (options.seed ?? 30) * 1_000_003 + danmakuChunks.length * 7_919;
          chunk = {
            videoIds: [],
            counts: [],
            seconds: [],
            createdMs: [],
            spanMs: [],
            languages: [],
            highlights: [],
            highlights2: [],
            firstIds: [],
            seed: (h % 2_000_001) / 1_000_000 - 1,
          };
          danmakuChunks.push(chunk);
          chunkRows = 0;
        }
        chunk.videoIds.push(videoIdOf(v));
        chunk.counts.push(danmakuCounts[v]);
        chunk.seconds.push(durationMs[v] / 1000);
        chunk.createdMs.push(videoTime[v]);
        chunk.spanMs.push(Math.max(now - videoTime[v], 60_000));
        chunk.languages.push(SEED_LANGS.indexOf(langOfUser(uploaderOf[v])));
        chunk.highlights.push(0.1 + rand() * 0.85);
        chunk.highlights2.push(0.1 + rand() * 0.85);
        chunk.firstIds.push(nextId);
        nextId += danmakuCounts[v];
        chunkRows += danmakuCounts[v];
      }
    }
    const pools = [
      ...SEED_LANGS.map((lang) => DANMAKU_BY_LANG[lang]),
      DANMAKU_SHARED,
      DANMAKU_OPENING,
      DANMAKU_HIGHLIGHT,
    ];
    const loadDanmaku = () => {
      danmaku = timed('danmaku', () =>
        repo.writeDanmaku(
          {
            phrases: pools.flat(),
            poolSize: DANMAKU_POOL_SIZE,
            languages: SEED_LANGS.length,
            sharedPool: SEED_LANGS.length,
            openingPool: SEED_LANGS.length + 1,
            highlightPool: SEED_LANGS.length + 2,
            // Who sends them: members by Zipf too (a few very active ones), as comments and history.
            firstUid: uidOf(0),
            members: U,
            memberExponent: MEMBER_EXPONENT,
            colors: COLORS,
            sizes: SIZES,
            modes: MODES,
          },
          danmakuChunks,
        ),
      );
      // Awaited below; a failure meanwhile is not unhandled.
      danmaku.catch(() => {});
      return repo.loadsBeside() ? Promise.resolve() : danmaku;
    };
    if (rankingsByHand) await loadDanmaku();
    const titleLines: string[] = [];
    const tagsOf: number[][] = [];
    const mediaId = (v: number) => hex(videoIdOf(v), 24);
    const uploadId = (v: number) => hex(videoIdOf(v), 32);

    await write(
      'uploads',
      (function* () {
        for (let v = 0; v < V; v += 1) {
          const at = new Date(videoTime[v] - 600_000);
          yield [
            uploadId(v),
            uidOf(uploaderOf[v]),
            `video-${v}.mp4`,
            20_000_000 + (v % 1000) * 100_000,
            1800,
            at,
            at,
            at,
            mediaId(v),
          ];
        }
      })(),
    );
    await write(
      'media',
      (function* () {
        for (let v = 0; v < V; v += 1) {
          yield [
            mediaId(v),
            uploadId(v),
            uidOf(uploaderOf[v]),
            'ready',
            durationMs[v],
            1280,
            720,
            'h264',
            'aac',
            30,
            new Date(videoTime[v] - 600_000),
            [360, 720],
          ];
        }
      })(),
    );
    await write(
      'videos',
      (function* () {
        for (let v = 0; v < V; v += 1) {
          const lang = langOfUser(uploaderOf[v]);
          const n = pick(NOUNS[lang], rand);
          const m = pick(NOUNS[lang], rand);
          const a = pick(ADJECTIVES[lang], rand);
          const title = fill(pick(TITLES[lang], rand), { n, m, a, k: 1 + (v % 200), A: capital(a), N: capital(n) });
          const description = fill(DESCRIPTIONS[lang], { n });
          const st = status(v);
          const searchText = searchTextOf(title, description);
          if (rankingsByHand && st === 'approved') titleLines[v] = searchText.split('\n', 1)[0];
          yield [
            videoIdOf(v),
            uidOf(uploaderOf[v]),
            title,
            st,
            new Date(videoTime[v]),
            description,
            pick(VIDEO_CATEGORIES, rand),
            rand() < 0.8 ? 'original' : 'repost',
            rand() < 0.8,
            durationMs[v],
            views[v],
            searchText,
            st === 'pending' ? null : new Date(videoTime[v] + 3_600_000),
            commentCounts[v],
          ];
        }
      })(),
    );
    await write(
      'video_parts',
      (function* () {
        for (let v = 0; v < V; v += 1) yield [videoIdOf(v), 0, mediaId(v)];
      })(),
    );
    const tagsZipf = zipf(T, 1, rand);
    await write(
      'video_tags',
      (function* () {
        for (let v = 0; v < V; v += 1) {
          const chosen = new Set<number>();
          const want = 1 + Math.floor(rand() * 5);
          for (let tries = 0; chosen.size < want && tries < 20; tries += 1) chosen.add(tagsZipf.draw());
          if (rankingsByHand && status(v) === 'approved') tagsOf[v] = [...chosen];
          let position = 0;
          for (const t of chosen) yield [videoIdOf(v), tagIdOf(t), position++];
        }
      })(),
    );

    // Who writes comments and history: members by Zipf too (a few very active ones).
    const members = zipf(U, MEMBER_EXPONENT, rand);
    if (!rankingsByHand) await loadDanmaku();

    // Comments: floors 1..n per video, one in eight a reply to an earlier top-level one.
    let commentId = first.comments;
    await write(
      'comments',
      (function* () {
        for (let v = 0; v < V; v += 1) {
          const span = Math.max(now - videoTime[v], 60_000);
          const topLevel: number[] = [];
          for (let floor = 1; floor <= commentCounts[v]; floor += 1) {
            const lang = langOfUser(members.draw());
            const id = commentId++;
            const parent = topLevel.length && rand() < 0.125 ? topLevel[Math.floor(rand() * topLevel.length)] : null;
            if (parent === null) topLevel.push(id);
            const text = `<p>${fill(pick(COMMENTS[lang], rand), { k: 1 + Math.floor(rand() * 30) })}</p>`;
            yield [
              id,
              videoIdOf(v),
              floor,
              uidOf(members.draw()),
              text,
              Math.floor(rand() ** 4 * 500),
              new Date(videoTime[v] + (floor / (commentCounts[v] + 1)) * span),
              parent,
            ];
          }
        }
      })(),
    );

    // Follows: uploaders by how much they upload; the reader follows 1000 (or everyone).
    const readerFollows = Math.min(1000, U - 1);
    await write(
      'follows',
      (function* () {
        for (let u = 0; u < U; u += 1) {
          const want = u === 0 ? readerFollows : Math.min(U - 1, Math.floor(rand() * 2 * options.followsPerUser));
          const chosen = new Set<number>();
          for (let tries = 0; chosen.size < want && tries < want * 20; tries += 1) {
            const other = u === 0 && tries >= want * 10 ? Math.floor(rand() * U) : uploaderOrder[uploaders.draw()];
            if (other !== u) chosen.add(other);
          }
          for (const other of chosen) yield [uidOf(u), uidOf(other), new Date(yearAgo + rand() * YEAR_MS)];
        }
      })(),
    );

    // History: each member's watched videos, popular ones more often (views' Zipf ranks).
    const watched = zipf(V, 0.9, rand);
    await write(
      'watch_history',
      (function* () {
        for (let u = 0; u < U; u += 1) {
          const chosen = new Set<number>();
          const want = Math.min(V, options.historyPerUser);
          for (let tries = 0; chosen.size < want && tries < want * 10; tries += 1)
            chosen.add(viewOrder[watched.draw()]);
          for (const v of chosen) {
            const at = videoTime[v] + rand() * Math.max(now - videoTime[v], 60_000);
            yield [uidOf(u), videoIdOf(v), Math.round((rand() * durationMs[v]) / 1000), new Date(at)];
          }
        }
      })(),
    );

    // Collections: one member in five has one to three, of 5 to 40 videos each.
    const collections: Array<{ id: number; owner: number; at: number; size: number }> = [];
    for (let u = 1; u < U; u += 5) {
      const count = 1 + Math.floor(rand() * 3);
      for (let c = 0; c < count; c += 1)
        collections.push({
          id: first.collections + collections.length,
          owner: u,
          at: yearAgo + rand() * YEAR_MS,
          size: 5 + Math.floor(rand() * 36),
        });
    }
    await write(
      'collections',
      (function* () {
        for (const c of collections) {
          const lang = langOfUser(c.owner);
          yield [
            c.id,
            uidOf(c.owner),
            phrase(lang, pick(ADJECTIVES[lang], rand), pick(NOUNS[lang], rand)),
            rand() < 0.7 ? 'public' : 'private',
            new Date(c.at),
            new Date(c.at),
          ];
        }
      })(),
    );
    await write(
      'collection_videos',
      (function* () {
        for (const c of collections) {
          const chosen = new Set<number>();
          for (let tries = 0; chosen.size < Math.min(c.size, V) && tries < c.size * 10; tries += 1)
            chosen.add(viewOrder[watched.draw()]);
          let position = 0;
          for (const v of chosen) yield [c.id, videoIdOf(v), position++, new Date(c.at + position * 60_000)];
        }
      })(),
    );

    // The search rankings (migration 0033) of the approved videos; with triggers, they wrote them.
    if (rankingsByHand) {
      await write(
        'video_title_terms',
        (function* () {
          for (let v = 0; v < V; v += 1) {
            if (titleLines[v] === undefined) continue;
            for (const term of titleTermsOf(titleLines[v])) yield [term, bucketOf(v), videoIdOf(v)];
          }
        })(),
      );
      await write(
        'video_tag_ranks',
        (function* () {
          for (let v = 0; v < V; v += 1) for (const t of tagsOf[v] ?? []) yield [tagIdOf(t), bucketOf(v), videoIdOf(v)];
        })(),
      );
    }

    // The kept comment counts (migration 0037): with triggers, they kept them as the rows went in.
    // Counted while the danmaku may still be loading (their indexes, their vacuum).
    if (rankingsByHand) {
      const countsStarted = performance.now();
      await repo.fillCommentCounts(first.videos);
      onProgress(`comment counts in ${((performance.now() - countsStarted) / 1000).toFixed(1)} s`);
    }
    await danmaku;
    await repo.advanceIdentities();
    const writtenSeconds = (performance.now() - started) / 1000;
    const analyzeStarted = performance.now();
    await repo.analyze();
    const analyzeSeconds = (performance.now() - analyzeStarted) / 1000;
    onProgress(`statistics refreshed in ${analyzeSeconds.toFixed(1)} s`);

    // The approved video with the most of something (the benches read public pages).
    const argmax = (xs: Int32Array, approvedOnly: boolean) => {
      let best = -1;
      for (let i = 0; i < xs.length; i += 1)
        if ((!approvedOnly || status(i) === 'approved') && (best < 0 || xs[i] > xs[best])) best = i;
      return Math.max(best, 0);
    };
    const rows = Object.values(tables).reduce((sum, t) => sum + t.rows, 0);
    const seconds = (performance.now() - started) / 1000;
    const biggest = argmax(uploadsBy, false);
    const mostDanmaku = argmax(danmakuCounts, true);
    const mostComments = argmax(commentCounts, true);
    return {
      tables,
      rows,
      seconds: +seconds.toFixed(1),
      rowsPerSecond: Math.round(rows / writtenSeconds),
      analyzeSeconds: +analyzeSeconds.toFixed(1),
      landmarks: {
        readerUid: uidOf(0),
        readerFollows,
        biggestUploaderUid: uidOf(biggest),
        biggestUploaderVideos: uploadsBy[biggest],
        mostDanmakuVideoId: videoIdOf(mostDanmaku),
        mostDanmaku: danmakuCounts[mostDanmaku],
        mostCommentsVideoId: videoIdOf(mostComments),
        mostComments: commentCounts[mostComments],
        firstVideoId: videoIdOf(0),
        lastVideoId: videoIdOf(V - 1),
      },
    };
  } finally {
    await (danmaku as Promise<void> | null)?.catch(() => {});
    await repo.close();
  }
}
