/**
 * Subtitle tracks and fonts from the upload itself (issue 29, "from the upload"): an MKV made by
 * ffmpeg with two ASS streams, one SRT, two real fonts and an attachment that only claims to be
 * one; an MP4 with mov_text; an MKV with a PGS stream. The real pipeline reads them, the tracks
 * are made by the same path as video/subtitle/create, and what could not be used is reported.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { BACKENDS, jsonCall, startTestServer, type TestServer } from './harness.ts';
import { member, statusOf, upload } from './media-helpers.ts';
import { binaryPath, run } from '../../server/media/ffmpeg.ts';
import { createUploadStore } from '../../server/media/upload-store.ts';
import { createMediaStore } from '../../server/media/media-store.ts';
import { hlsPath, transcodeJob } from '../../server/media/pipeline.ts';
import { createLogger } from '../../server/logger.ts';
import { fontAsSfnt } from '../../server/media/subtitle-fonts.ts';
import * as fontkit from 'fontkitten';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
/**
 * The fixtures' styles with lines inside the 2-second clip (a stream running past the picture
 * would make the container, and so the probed duration, longer than the video).
 */
const ASS_TEXT =
  readFileSync(here('../fixtures/subtitles/ep01.ja.ass'), 'utf8').replace(/^Dialogue:.*\n?/gm, '') +
  'Dialogue: 0,0:00:00.50,0:00:01.50,Default,,0,0,0,,{\\fnLiberation Sans}{\\k40}き{\\k40}ら{\\k40}ぼ{\\k40}し\n' +
  'Dialogue: 0,0:00:01.00,0:00:01.80,Sign,,0,0,0,,{\\pos(960,100)}看板\n';
/** The same lines with styles in the family of the other attachment (the fixture's own, Noto Sans CJK JP, is none of them). */
const ASS_ZH_TEXT = ASS_TEXT.replaceAll('Noto Sans CJK JP', 'Noto Sans SC').replace('{\\fnLiberation Sans}', '');
const SRT_TEXT =
  '1\n00:00:00,200 --> 00:00:01,000\nHello <i>there</i>\n\n2\n00:00:01,000 --> 00:00:01,900\nSecond line\n';
/** Two real fonts the site already depends on: a WOFF2 (jassub's) and a WOFF (@fontsource's). */
const WOFF2 = here('../../node_modules/jassub/dist/default.woff2');
const WOFF = here('../../node_modules/@fontsource/noto-sans-sc/files/noto-sans-sc-latin-400-normal.woff');

/** A minimal PGS (.sup) stream: two display sets of a composition segment and an end segment each. */
function pgsSup(): Buffer {
  const segment = (pts: number, type: number, data: Buffer) => {
    const head = Buffer.alloc(13);
    head.write('PG', 0, 'latin1');
    head.writeUInt32BE(pts, 2);
    head.writeUInt8(type, 10);
    head.writeUInt16BE(data.length, 11);
    return Buffer.concat([head, data]);
  };
  const set = (pts: number, n: number) => {
    const pcs = Buffer.alloc(11);
    pcs.writeUInt16BE(320, 0);
    pcs.writeUInt16BE(240, 2);
    pcs.writeUInt8(0x10, 4);
    pcs.writeUInt16BE(n, 5);
    pcs.writeUInt8(0x80, 7);
    return Buffer.concat([segment(pts, 0x16, pcs), segment(pts, 0x80, Buffer.alloc(0))]);
  };
  return Buffer.concat([set(9000, 0), set(90_000, 1)]);
}

/** Each test uploads and transcodes a 2-second clip: a few seconds, more on a busy machine. */
const SLOW = 120_000;

describe.each(BACKENDS)('subtitle streams of an upload on %s', (backend) => {
  let server: TestServer;
  let cookie = '';
  let dir = '';
  let mediaDir = '';
  let uploadDir = '';
  let ASS = '';
  let ASS_ZH = '';
  let SRT = '';
  const ffmpeg = async (args: string[], name: string) => {
    const out = join(dir, name);
    const result = await run(binaryPath('ffmpeg'), [
      '-y',
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=320x240:rate=10:duration=2',
      ...args,
      out,
    ]);
    if (result.code !== 0) throw new Error(result.stderr);
    return new Uint8Array(await readFile(out));
  };
  const commit = async (mediaId: string) => {
    const res = await jsonCall(server, 'video/upload', {
      method: 'POST',
      cookie,
      body: {
        title: '字幕つき',
        videoPart: [{ mediaId, videoPartTitle: '' }],
        videoCategory: 'anime',
        copyright: 'original',
        ensureOriginal: true,
      },
    });
    expect(res.status).toBe(200);
    return res.body.videoId as number;
  };
  const tracksOf = async (videoId: number) =>
    (await jsonCall(server, `video/subtitle/list?videoId=${videoId}`, { cookie })).body.subtitles as Array<
      Record<string, any>
    >;
  const get = (url: string) => fetch(`${server.baseUrl}${url}`, { headers: { Cookie: cookie } });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kiraboshi-subtitle-streams-'));
    ASS = join(dir, 'lines.ass');
    SRT = join(dir, 'lines.srt');
    await writeFile(ASS, ASS_TEXT);
    ASS_ZH = join(dir, 'lines.zh.ass');
    await writeFile(ASS_ZH, ASS_ZH_TEXT);
    await writeFile(SRT, SRT_TEXT);
    mediaDir = join(dir, 'media');
    uploadDir = join(dir, 'uploads');
    server = await startTestServer(backend, { env: { MEDIA_DIR: mediaDir, UPLOAD_DIR: uploadDir } });
    cookie = await member(server, 'Fansub');
  });
  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it(
    'makes an MKV’s ASS and SRT streams tracks with their languages and titles, and keeps its fonts (only real ones) for the ASS tracks',
    async () => {
      await writeFile(join(dir, 'fake.ttf'), 'This is not a font, whatever its name says.');
      // A WOFF2 by its magic bytes, damaged past them: it cannot be unpacked, so it is refused too.
      await writeFile(
        join(dir, 'broken.woff2'),
        Buffer.concat([(await readFile(WOFF2)).subarray(0, 48), Buffer.alloc(4000, 0x5a)]),
      );
      const mkv = await ffmpeg(
        [
          '-i',
          ASS,
          '-i',
          ASS_ZH,
          '-i',
          SRT,
          '-map',
          '0',
          '-map',
          '1',
          '-map',
          '2',
          '-map',
          '3',
          '-c:v',
          'libx264',
          '-preset',
          'ultrafast',
          '-c:s:0',
          'ass',
          '-c:s:1',
          'ass',
          '-c:s:2',
          'srt',
          '-metadata:s:s:0',
          'language=jpn',
          '-metadata:s:s:0',
          'title=日本語 (字幕組)',
          '-metadata:s:s:1',
          'language=chi',
          '-metadata:s:s:1',
          'title=简体中文',
          '-metadata:s:s:2',
          'language=eng',
          '-attach',
          WOFF2,
          '-metadata:s:t:0',
          'mimetype=font/woff2',
          '-metadata:s:t:0',
          'filename=default.woff2',
          '-attach',
          WOFF,
          '-metadata:s:t:1',
          'mimetype=font/woff',
          '-metadata:s:t:1',
          'filename=NotoSansSC.woff',
          '-attach',
          join(dir, 'fake.ttf'),
          '-metadata:s:t:2',
          'mimetype=application/x-truetype-font',
          '-metadata:s:t:2',
          'filename=fake.ttf',
          '-attach',
          join(dir, 'broken.woff2'),
          '-metadata:s:t:3',
          'mimetype=font/woff2',
          '-metadata:s:t:3',
          'filename=broken.woff2',
        ],
        'fansub.mkv',
      );
      const mediaId = await upload(server, cookie, mkv);
      const status = await statusOf(server, cookie, mediaId);
      expect(status).toMatchObject({
        status: 'ready',
        subtitleNotes: [
          { stream: 3, code: 'FONT_REFUSED', codec: 'fake.ttf' },
          { stream: 4, code: 'FONT_REFUSED', codec: 'broken.woff2' },
        ],
      });
      // Not a video's part yet: the tracks wait for the commit.
      const videoId = await commit(mediaId);
      const tracks = await tracksOf(videoId);
      expect(tracks.map(({ part, language, label, format }) => ({ part, language, label, format }))).toEqual([
        { part: 1, language: 'ja', label: '日本語 (字幕組)', format: 'ass' },
        { part: 1, language: 'zh', label: '简体中文', format: 'ass' },
        { part: 1, language: 'en', label: 'English', format: 'srt' },
      ]);
      const row = await server.db
        .selectFrom('video_subtitles')
        .select(['source', 'created_by'])
        .where('subtitle_id', '=', tracks[0]!.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ source: 'stream', created_by: null });
      // The ASS track is the file's own lines, its WebVTT made as for an uploaded file.
      const original = await (await get(tracks[0]!.url)).text();
      expect(original).toContain('[Events]');
      // Karaoke and positioning as the file has them.
      expect(original).toContain('{\\k40}き{\\k40}ら');
      expect(original).toContain('{\\pos(960,100)}看板');
      expect(
        (await (await get(tracks[0]!.vttUrl)).text()).startsWith('WEBVTT\n\n00:00:00.500 --> 00:00:01.500\nきらぼし'),
      ).toBe(true);
      expect(await (await get(tracks[2]!.vttUrl)).text()).toBe(
        'WEBVTT\n\n00:00:00.200 --> 00:00:01.000\nHello <i>there</i>\n\n00:00:01.000 --> 00:00:01.900\nSecond line\n',
      );

      // Both real fonts kept; the fake and the broken one are not. Each ASS track lists only the one its lines
      // name (libass is given nothing it will not draw with): the Japanese one Liberation Sans by an \fn
      // override (its styles name a font the file does not carry), the Chinese one Noto Sans SC by its styles.
      // Each is stored as the TrueType file inside its WOFF2 or WOFF (libass takes it at once), sent compressed.
      const fontsDir = `/media/${hlsPath(mediaId)}/fonts`;
      expect(tracks[0]!.fonts).toEqual([`${fontsDir}/1.ttf`]);
      expect(tracks[1]!.fonts).toEqual([`${fontsDir}/2.ttf`]);
      expect(tracks[2]!.fonts).toEqual([]);
      const served = await Promise.all(
        [...tracks[0]!.fonts, ...tracks[1]!.fonts].map(async (url: string) => {
          const res = await fetch(`${server.baseUrl}${url}`, { headers: { Cookie: cookie, 'Accept-Encoding': 'br' } });
          return {
            type: res.headers.get('content-type'),
            encoding: res.headers.get('content-encoding'),
            bytes: Buffer.from(await res.arrayBuffer()),
          };
        }),
      );
      expect(served.map((f) => [f.type, f.encoding])).toEqual([
        ['font/ttf', 'br'],
        ['font/ttf', 'br'],
      ]);
      for (const [i, file] of [WOFF2, WOFF].entries()) {
        const plain = await fontAsSfnt(new Uint8Array(await readFile(file)), 20e6);
        expect(served[i]!.bytes.subarray(0, 4)).toEqual(Buffer.from([0, 1, 0, 0]));
        expect(served[i]!.bytes.equals(Buffer.from(plain))).toBe(true);
      }
      expect(await readdir(join(mediaDir, hlsPath(mediaId), 'fonts'))).toEqual([
        '1.ttf',
        '1.ttf.br',
        '2.ttf',
        '2.ttf.br',
      ]);
      // Each ASS track has its own cut of the fallback font, beside its files: the characters of its
      // lines only, under the fallback's family name. The SRT track has none (drawn by the browser).
      const cutRes = await get(tracks[0]!.fallbackFont);
      expect(cutRes.headers.get('content-type')).toBe('font/ttf');
      const cut = fontkit.create(Buffer.from(await cutRes.arrayBuffer())) as fontkit.Font;
      expect(cut.familyName.toLowerCase()).toBe('noto sans sc thin');
      expect(
        cut.characterSet
          .filter((cp) => cp > 0x7f && cp !== 0xffff && cp !== 0xa0)
          .map((cp) => String.fromCodePoint(cp))
          .sort(),
      ).toEqual([...'きらぼし看板'].sort());
      expect(tracks[0]!.fallbackFont).toBe(tracks[0]!.url.replace(/original\.ass$/, 'fallback.ttf'));
      expect(tracks[1]!.fallbackFont).toBe(tracks[1]!.url.replace(/original\.ass$/, 'fallback.ttf'));
      expect(tracks[2]!.fallbackFont).toBeNull();
      // The extracted files were only waiting: gone once the tracks are made.
      expect(await readdir(join(mediaDir, hlsPath(mediaId))).then((names) => names.includes('streams'))).toBe(false);

      // The master playlist lists the three as WebVTT renditions.
      const master = await (await get(`/media/${hlsPath(mediaId)}/master.m3u8`)).text();
      expect(master.match(/#EXT-X-MEDIA:TYPE=SUBTITLES/g)).toHaveLength(3);
      expect(master).toContain('LANGUAGE="zh"');
      // And a native player reads them so: FFmpeg's HLS demuxer (ffprobe's and ffmpeg's), over HTTP,
      // lists the three as WebVTT streams with their languages beside the picture. (FFmpeg opens
      // subtitle renditions only with -strict experimental. Its stream list is read from ffmpeg -i:
      // the ffprobe the npm package ships crashes on any MPEG-TS segment, before printing.)
      const probed = await run(binaryPath('ffmpeg'), [
        '-hide_banner',
        '-strict',
        'experimental',
        '-headers',
        `Cookie: ${cookie}\r\n`,
        '-i',
        `${server.baseUrl}/media/${hlsPath(mediaId)}/master.m3u8`,
      ]);
      const streams = [...probed.stderr.matchAll(/Stream #\d+:\d+(?:\((\w+)\))?: (Video|Subtitle): (\w+)/g)].map(
        ([, language, type, codec]) => ({ language, type, codec }),
      );
      expect(streams.filter((s) => s.type === 'Subtitle')).toEqual([
        { language: 'ja', type: 'Subtitle', codec: 'webvtt' },
        { language: 'zh', type: 'Subtitle', codec: 'webvtt' },
        { language: 'en', type: 'Subtitle', codec: 'webvtt' },
      ]);
      expect(streams.filter((s) => s.type === 'Video').map((s) => s.codec)).toEqual(['h264']);
      // "My videos" reports the refused attachment.
      const mine = (await jsonCall(server, 'video/mine?page=1&pageSize=20', { cookie })).body.videos.find(
        (v: { videoId: number }) => v.videoId === videoId,
      );
      expect(mine.subtitleNotes).toEqual([
        { part: 1, stream: 3, code: 'FONT_REFUSED', codec: 'fake.ttf' },
        { part: 1, stream: 4, code: 'FONT_REFUSED', codec: 'broken.woff2' },
      ]);
      // A track whose names were not read (made before they were) is given every font of its part, as before.
      await server.db
        .updateTable('video_subtitles')
        .set({ font_names: null })
        .where('subtitle_id', '=', tracks[0]!.id)
        .execute();
      expect((await tracksOf(videoId))[0]!.fonts).toEqual([`${fontsDir}/1.ttf`, `${fontsDir}/2.ttf`]);
    },
    SLOW,
  );

  it(
    'makes an MP4’s mov_text stream a track, by the transcode when the video was committed first',
    async () => {
      const mp4 = await ffmpeg(
        [
          '-i',
          SRT,
          '-map',
          '0',
          '-map',
          '1',
          '-c:v',
          'libx264',
          '-preset',
          'ultrafast',
          '-c:s',
          'mov_text',
          '-metadata:s:s:0',
          'language=fre',
        ],
        'movtext.mp4',
      );
      const mediaId = await upload(server, cookie, mp4);
      await statusOf(server, cookie, mediaId);
      const videoId = await commit(mediaId);
      expect((await tracksOf(videoId)).map(({ language, label, format }) => ({ language, label, format }))).toEqual([
        { language: 'fr', label: 'français', format: 'srt' },
      ]);

      // As when the commit comes before the transcode: the part exists, the streams are not read yet.
      await server.db.deleteFrom('video_subtitles').where('video_id', '=', videoId).execute();
      await server.db
        .updateTable('media')
        .set({ status: 'probed', renditions: [], stream_subtitles: sql<string>`NULL`, stream_subtitles_adopted: false })
        .where('media_id', '=', mediaId)
        .execute();
      const job = transcodeJob({
        repositories: server.repositories,
        uploads: await createUploadStore({ directory: uploadDir }),
        media: await createMediaStore({ directory: mediaDir, scratchDirectory: uploadDir }),
        logger: createLogger('error'),
      });
      await job({ mediaId }, { attempt: 1, isLastAttempt: false });
      const tracks = await tracksOf(videoId);
      expect(tracks.map(({ language, format }) => ({ language, format }))).toEqual([{ language: 'fr', format: 'srt' }]);
      expect(await (await get(tracks[0]!.vttUrl)).text()).toMatch(/^WEBVTT\n\n00:00:00\.200 --> 00:00:01\.000\nHello/);
      // Run again (a retried job), nothing is made twice.
      await job({ mediaId }, { attempt: 2, isLastAttempt: false });
      await server.db.updateTable('media').set({ status: 'transcoding' }).where('media_id', '=', mediaId).execute();
      await job({ mediaId }, { attempt: 3, isLastAttempt: false });
      expect(await tracksOf(videoId)).toHaveLength(1);
    },
    SLOW,
  );

  it(
    'lists a PGS (bitmap) stream as not supported, and makes no track of it',
    async () => {
      await writeFile(join(dir, 'signs.sup'), pgsSup());
      const mkv = await ffmpeg(
        [
          '-i',
          join(dir, 'signs.sup'),
          '-i',
          SRT,
          '-map',
          '0',
          '-map',
          '1',
          '-map',
          '2',
          '-c:v',
          'libx264',
          '-preset',
          'ultrafast',
          '-c:s:0',
          'copy',
          '-c:s:1',
          'srt',
          '-metadata:s:s:1',
          'language=kor',
        ],
        'pgs.mkv',
      );
      const mediaId = await upload(server, cookie, mkv);
      expect(await statusOf(server, cookie, mediaId)).toMatchObject({
        status: 'ready',
        subtitleNotes: [{ stream: 1, code: 'SUBTITLE_BITMAP', codec: 'hdmv_pgs_subtitle' }],
      });
      const videoId = await commit(mediaId);
      expect((await tracksOf(videoId)).map(({ language, label }) => ({ language, label }))).toEqual([
        { language: 'ko', label: '한국어' },
      ]);
      const mine = (await jsonCall(server, 'video/mine?page=1&pageSize=20', { cookie, locale: 'ja' })).body.videos.find(
        (v: { videoId: number }) => v.videoId === videoId,
      );
      expect(mine.subtitleNotes).toEqual([{ part: 1, stream: 1, code: 'SUBTITLE_BITMAP', codec: 'hdmv_pgs_subtitle' }]);
    },
    SLOW,
  );
});
