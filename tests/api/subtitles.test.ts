/**
 * Subtitle tracks (issue 29): added by the uploader or staff, parsed on the way in (malformed
 * files refused with a code and a message in the caller's language), listed with the original
 * file and a WebVTT made from it, both readable exactly while the video may be seen.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, jsonCall, startTestServer, type TestServer } from './harness.ts';
import { insertVideo, member } from './media-helpers.ts';
import * as fontkit from 'fontkitten';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/subtitles/${name}`, import.meta.url), 'utf8');

describe.each(BACKENDS)('subtitle tracks on %s', (backend) => {
  let server: TestServer;
  let uploader = '';
  let other = '';
  let admin = '';
  const call = (path: string, method: string, body: unknown, cookie?: string, locale?: string) =>
    jsonCall(server, path, { method, cookie, locale, body });
  const create = (body: Record<string, unknown>, cookie?: string, locale?: string) =>
    call('video/subtitle/create', 'POST', body, cookie, locale);
  const list = (videoId: number, cookie?: string) =>
    jsonCall(server, `video/subtitle/list?videoId=${videoId}`, { cookie });
  const file = (url: string, cookie?: string) =>
    fetch(`${server.baseUrl}${url}`, { headers: cookie ? { Cookie: cookie } : {} });

  beforeAll(async () => {
    server = await startTestServer(backend);
    uploader = await member(server, 'Fansubber');
    other = await member(server, 'Passerby');
    admin = await member(server, 'SubStaff', ['administrator']);
  });
  afterAll(() => server?.close());

  it('adds an ASS and an SRT track, lists them and serves the original and its WebVTT', async () => {
    const videoId = await insertVideo(server, uploader, 60_000);
    const ass = await create(
      { videoId, part: 1, language: 'ja', label: '日本語 (字幕組)', format: 'ass', text: fixture('ep01.ja.ass') },
      uploader,
    );
    expect(ass).toMatchObject({
      status: 200,
      body: { success: true, subtitle: { part: 1, language: 'ja', label: '日本語 (字幕組)', format: 'ass' } },
    });
    // The language tag comes back in its canonical form.
    const srt = await create(
      { videoId, part: 1, language: 'zh-hans-cn', label: '简体', format: 'srt', text: fixture('ep01.en.srt') },
      uploader,
    );
    expect(srt.body.subtitle.language).toBe('zh-Hans-CN');
    const listed = await list(videoId);
    expect(listed.status).toBe(200);
    expect(listed.body.subtitles.map((s: { id: number }) => s.id)).toEqual([
      ass.body.subtitle.id,
      srt.body.subtitle.id,
    ]);

    // The ASS track has its own cut of the fallback font beside its files, which the player gives
    // libass instead of the whole one: the characters its lines show (entities undone, the
    // drawing's commands left out) under the fallback's family name. The SRT track has none.
    expect(ass.body.subtitle.fallbackFont).toBe(ass.body.subtitle.url.replace(/original\.ass$/, 'fallback.ttf'));
    expect(srt.body.subtitle.fallbackFont).toBeNull();
    expect(listed.body.subtitles.map((s: { fallbackFont: string | null }) => s.fallbackFont)).toEqual([
      ass.body.subtitle.fallbackFont,
      null,
    ]);
    const cutRes = await file(ass.body.subtitle.fallbackFont);
    expect(cutRes.status).toBe(200);
    expect(cutRes.headers.get('content-type')).toBe('font/ttf');
    const cutBytes = Buffer.from(await cutRes.arrayBuffer());
    expect(cutBytes.byteLength).toBeLessThan(20_000);
    const cut = fontkit.create(cutBytes) as fontkit.Font;
    expect(cut.familyName.toLowerCase()).toBe('noto sans sc thin');
    const shown = cut.characterSet.filter((cp) => cp !== 0xffff).map((cp) => String.fromCodePoint(cp));
    for (const character of 'きらぼし星がめく<夜>看板&二行目') expect(shown).toContain(character);
    for (const character of 'mlNk\\{}0') expect(shown).not.toContain(character);
    // A track added before such cuts were made has none: the player then loads the whole fallback.
    await server.db
      .updateTable('video_subtitles')
      .set({ fallback_font: false })
      .where('subtitle_id', '=', ass.body.subtitle.id)
      .execute();
    expect((await list(videoId)).body.subtitles[0].fallbackFont).toBeNull();
    await server.db
      .updateTable('video_subtitles')
      .set({ fallback_font: true })
      .where('subtitle_id', '=', ass.body.subtitle.id)
      .execute();

    const original = await file(ass.body.subtitle.url);
    expect(original.status).toBe(200);
    expect(original.headers.get('content-type')).toContain('text/x-ssa');
    expect(await original.text()).toBe(fixture('ep01.ja.ass'));
    const vtt = await file(ass.body.subtitle.vttUrl);
    expect(vtt.headers.get('content-type')).toContain('text/vtt');
    const vttText = await vtt.text();
    expect(vttText.startsWith('WEBVTT\n\n00:00:00.500 --> 00:00:04.000\nきらぼし\n')).toBe(true);
    expect(vttText).not.toContain('\\k');

    // The part's master playlist lists both as WebVTT renditions, each a playlist of its WebVTT file.
    const mediaId = ass.body.subtitle.url.split('/')[3];
    const master = await (await file(`/media/hls/${mediaId}/master.m3u8`)).text();
    expect(master).toContain(
      `#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="日本語 (字幕組) (${ass.body.subtitle.id})",LANGUAGE="ja",DEFAULT=NO,AUTOSELECT=NO,FORCED=NO,URI="subtitles/${ass.body.subtitle.id}/index.m3u8"`,
    );
    expect(master).toContain(
      `LANGUAGE="zh-Hans-CN",DEFAULT=NO,AUTOSELECT=NO,FORCED=NO,URI="subtitles/${srt.body.subtitle.id}/index.m3u8"`,
    );
    expect(master).toMatch(/#EXT-X-STREAM-INF:[^\n]*,SUBTITLES="subs"\n360p\/index\.m3u8/);
    const media = await (await file(`/media/hls/${mediaId}/subtitles/${ass.body.subtitle.id}/index.m3u8`)).text();
    expect(media).toBe(
      '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:60\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:60.000,\nwebvtt.vtt\n#EXT-X-ENDLIST\n',
    );
    // Removed, a track leaves the master playlist.
    expect((await call('video/subtitle/delete', 'DELETE', { id: srt.body.subtitle.id }, uploader)).status).toBe(200);
    const after = await (await file(`/media/hls/${mediaId}/master.m3u8`)).text();
    expect(after).not.toContain(`subtitles/${srt.body.subtitle.id}/`);
    expect(after).toContain(`subtitles/${ass.body.subtitle.id}/`);
  });

  it('lets only the uploader or staff add and remove tracks', async () => {
    const videoId = await insertVideo(server, uploader, 60_000);
    const body = { videoId, part: 1, language: 'en', label: 'English', format: 'srt', text: fixture('ep01.en.srt') };
    expect((await create(body)).status).toBe(401);
    expect((await create(body, other)).status).toBe(403);
    const byStaff = await create(body, admin);
    expect(byStaff.status).toBe(200);
    const id = byStaff.body.subtitle.id;
    expect((await call('video/subtitle/delete', 'DELETE', { id }, other)).status).toBe(403);
    expect((await call('video/subtitle/delete', 'DELETE', { id }, uploader)).status).toBe(200);
    expect((await list(videoId)).body.subtitles).toEqual([]);
    expect((await file(byStaff.body.subtitle.vttUrl)).status).toBe(404);
    expect((await call('video/subtitle/delete', 'DELETE', { id }, uploader)).status).toBe(404);
    // A part the video does not have, a video that does not exist.
    expect((await create({ ...body, part: 2 }, uploader)).status).toBe(404);
    expect((await create({ ...body, videoId: 987654 }, admin)).status).toBe(404);
  });

  it('refuses malformed and hostile files with a clear code and a message in the caller’s language', async () => {
    const videoId = await insertVideo(server, uploader, 60_000);
    const base = { videoId, part: 1, language: 'ja', label: 'x' };
    const cases: Array<[string, string]> = [
      ['ass', 'This is a plain text file.'],
      ['srt', '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><x>&a;</x>'],
      ['vtt', fixture('ep01.en.srt')],
      ['srt', '\u00ff\u00fe\ufffd\ufffdPNG IHDR'.repeat(100)],
    ];
    for (const [format, text] of cases) {
      const res = await create({ ...base, format, text }, uploader, 'ja');
      expect(res.status, `${format}: ${text.slice(0, 20)}`).toBe(400);
      expect(res.body.code).toBe('SUBTITLE_MALFORMED');
      expect(res.body.message).toMatch(/[\u3040-\u30ff]/);
    }
    // Markup in a track never reaches a player as markup: the WebVTT holds it as text.
    const sneaky = await create(
      {
        ...base,
        format: 'srt',
        text: '1\n00:00:01,000 --> 00:00:02,000\n<script>alert(1)</script><img src=x onerror=alert(1)>\n',
      },
      uploader,
    );
    expect(sneaky.status).toBe(200);
    expect(await (await file(sneaky.body.subtitle.vttUrl)).text()).toBe(
      'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nalert(1)\n',
    );
    expect((await file(sneaky.body.subtitle.url)).headers.get('x-content-type-options')).toBe('nosniff');
    // Control characters (a binary file sent as text) are refused by the wire's own check before any parser sees them.
    expect(
      (await create({ ...base, format: 'srt', text: '\u0000\u0001binary'.repeat(50) }, uploader)).body,
    ).toMatchObject({ code: 'VALIDATION_FAILED', issues: [{ path: 'text' }] });
    // Not a language tag; too large.
    expect(
      (await create({ ...base, language: 'not a language', format: 'srt', text: fixture('ep01.en.srt') }, uploader))
        .body.code,
    ).toBe('VALIDATION_FAILED');
    const huge = await create(
      { ...base, format: 'srt', text: `1\n00:00:01,000 --> 00:00:02,000\n${'字'.repeat(1_500_000)}\n` },
      uploader,
    );
    expect(huge.status).toBe(400);
  });

  it('follows the video’s review state: pending tracks only for the uploader and staff', async () => {
    const videoId = await insertVideo(server, uploader, 60_000, 'pending');
    const added = await create(
      { videoId, part: 1, language: 'ja', label: '日本語', format: 'ass', text: fixture('ep01.ja.ass') },
      uploader,
    );
    expect(added.status).toBe(200);
    expect((await list(videoId)).status).toBe(404);
    expect((await list(videoId, other)).status).toBe(404);
    expect((await list(videoId, admin)).body.subtitles).toHaveLength(1);
    expect((await file(added.body.subtitle.vttUrl)).status).toBe(404);
    expect((await file(added.body.subtitle.vttUrl, uploader)).status).toBe(200);
    // Its cut of the fallback font too.
    expect((await file(added.body.subtitle.fallbackFont)).status).toBe(404);
    expect((await file(added.body.subtitle.fallbackFont, uploader)).status).toBe(200);
    await call('video/pending/approved', 'POST', { videoId }, admin);
    expect((await list(videoId)).body.subtitles).toHaveLength(1);
    // Media access keeps a video's state for a second.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await file(added.body.subtitle.vttUrl)).status).toBe(200);
  });

  it('exports danmaku as Bilibili XML and ASS, and imports the XML into another video with the same danmaku', async () => {
    const source = await insertVideo(server, uploader, 60_000);
    await call(
      'video/danmaku/emit',
      'POST',
      { videoId: source, time: 1.5, text: '弾幕テスト <&>', color: '#ff8800', fontSize: 'large', mode: 'top' },
      other,
    );
    const exported = await fetch(`${server.baseUrl}/api/video/danmaku/export?videoId=${source}&format=xml`);
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toContain('application/xml');
    const xml = await exported.text();
    expect(xml).toContain('<d p="1.50000,5,36,16746496,');
    expect(xml).toContain(',0,0,'); // no sender id
    const ass = await (await fetch(`${server.baseUrl}/api/video/danmaku/export?videoId=${source}&format=ass`)).text();
    expect(ass).toMatch(/Dialogue: 2,0:00:01\.50,0:00:06\.50,Danmaku,.*\\an8.*弾幕テスト <&>/);

    const target = await insertVideo(server, uploader, 60_000);
    expect((await call('video/danmaku/import', 'POST', { videoId: target, xml }, other)).status).toBe(403);
    expect((await call('video/danmaku/import', 'POST', { videoId: target, xml })).status).toBe(401);
    const imported = await call('video/danmaku/import', 'POST', { videoId: target, xml }, uploader);
    expect(imported).toMatchObject({ status: 200, body: { success: true, imported: 1, skipped: 0 } });
    const strip = (d: Record<string, unknown>) => ({
      time: d.time,
      text: d.text,
      color: d.color,
      fontSize: d.fontSize,
      mode: d.mode,
    });
    const before = (await jsonCall(server, `video/danmaku?videoId=${source}`)).body.danmaku.map(strip);
    const after = (await jsonCall(server, `video/danmaku?videoId=${target}`)).body.danmaku.map(strip);
    expect(after).toEqual(before);
    const row = await server.db
      .selectFrom('danmaku')
      .select(['imported'])
      .where('video_id', '=', target)
      .executeTakeFirstOrThrow();
    expect(row.imported).toBe(true);
  });

  it('caps an import like the pool, and refuses hostile or malformed XML with a clear error', async () => {
    const videoId = await insertVideo(server, uploader, 30_000); // a pool of 100
    const many = Array.from(
      { length: 250 },
      (_, i) => `<d p="${(i % 30).toFixed(2)},1,25,16777215,${1_700_000_000 + i},0,abc,${i}">line ${i}</d>`,
    ).join('');
    const capped = await call(
      'video/danmaku/import',
      'POST',
      { videoId, xml: `<i>${many}<d p="45,1,25,0,1,0,x,1">past the end</d></i>` },
      admin,
    );
    expect(capped.body).toMatchObject({ imported: 100, skipped: 151 });
    const texts = (await jsonCall(server, `video/danmaku?videoId=${videoId}`)).body.danmaku.map(
      (d: { text: string }) => d.text,
    );
    expect(texts).toHaveLength(100);
    expect(texts).toContain('line 249');
    expect(texts).not.toContain('line 0');
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">' +
      '<!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">]><i><d p="1,1,25,0">&lol2;</d></i>';
    for (const xml of [laughs, '<i><d p="1,1,25,0">unclosed</i>', 'not xml at all']) {
      const res = await call('video/danmaku/import', 'POST', { videoId, xml }, uploader, 'ko');
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('DANMAKU_XML_MALFORMED');
      expect(res.body.message).toMatch(/[\uac00-\ud7af]/);
    }
    // Export follows the video's review state.
    const pending = await insertVideo(server, uploader, 60_000, 'pending');
    expect((await fetch(`${server.baseUrl}/api/video/danmaku/export?videoId=${pending}`)).status).toBe(404);
  });
});
