import { describe, expect, it } from 'vitest';
import {
  MalformedDanmakuXml,
  parseBilibiliXml,
  toBilibiliXml,
  toDanmakuAss,
} from '../../server/media/danmaku-exchange.ts';
import type { Danmaku } from '../../src/lib/api/contracts/interaction.ts';

const pool: Danmaku[] = [
  {
    id: 1,
    time: 1.25,
    text: '前方高能 <注意> & "ok"',
    color: 'ff0000',
    fontSize: 'medium',
    mode: 'rtl',
    enableRainbow: false,
    editDateTime: 1_700_000_000_000,
  },
  {
    id: 2,
    time: 2.5,
    text: 'top line',
    color: 'ffffff',
    fontSize: 'large',
    mode: 'top',
    enableRainbow: false,
    editDateTime: 1_700_000_001_000,
  },
  {
    id: 3,
    time: 3.75,
    text: '下のコメント',
    color: '00ff7f',
    fontSize: 'small',
    mode: 'bottom',
    enableRainbow: false,
    editDateTime: 1_700_000_002_000,
  },
  {
    id: 4,
    time: 4,
    text: 'reverse',
    color: '0000ff',
    fontSize: 'medium',
    mode: 'ltr',
    enableRainbow: false,
    editDateTime: 1_700_000_003_000,
  },
];

describe('Bilibili XML', () => {
  it('round-trips time, mode, colour, size and text', () => {
    const xml = toBilibiliXml(pool, 7);
    expect(xml).toContain(
      '<d p="1.25000,1,25,16711680,1700000000,0,0,1">前方高能 &lt;注意&gt; &amp; &quot;ok&quot;</d>',
    );
    const { danmaku, skipped } = parseBilibiliXml(xml);
    expect(skipped).toBe(0);
    expect(danmaku.map(({ sentAt: _, ...d }) => d)).toEqual(
      pool.map((d) => ({ time: d.time, mode: d.mode, fontSize: d.fontSize, color: d.color, text: d.text })),
    );
  });

  it('reads Bilibili’s own files: other sizes to the nearest, positioned and code danmaku skipped', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?><i><chatid>1</chatid>
      <d p="10.5,5,64,16777215,1,0,abcd1234,9">big top</d><d p="3,7,25,0,1,0,x,1">[0,0,"1-1",4.5,"pos"]</d>
      <d p="1,1,12,255,1,0,x,2">tiny blue</d><d p="oops">bad</d><d p="2,1,25,0,1,0,x,3"></d></i>`;
    const { danmaku, skipped } = parseBilibiliXml(xml);
    expect(skipped).toBe(3);
    expect(danmaku).toEqual([
      { time: 1, mode: 'rtl', fontSize: 'small', color: '0000ff', text: 'tiny blue', sentAt: 1000 },
      { time: 10.5, mode: 'top', fontSize: 'large', color: 'ffffff', text: 'big top', sentAt: 1000 },
    ]);
  });

  it.each([
    [
      'a DOCTYPE with entities (billion laughs)',
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><i><d p="1,1,25,0">&lol2;</d></i>',
    ],
    ['an external entity', '<!DOCTYPE i [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><i><d p="1,1,25,0">&xxe;</d></i>'],
    ['unclosed tags', '<i><d p="1,1,25,0">hello</i>'],
    ['another root', '<html><body>hi</body></html>'],
    ['not XML', 'just text'],
  ])('refuses %s', (_, xml) => {
    expect(() => parseBilibiliXml(xml)).toThrow(MalformedDanmakuXml);
  });
});

describe('danmaku as ASS', () => {
  it('lays out scrolling lanes, top and bottom lines and colours as danmaku2ass does', () => {
    const ass = toDanmakuAss([...pool, { ...pool[0]!, id: 5, time: 1.3, text: 'second lane' }], 'kv7');
    expect(ass).toContain('PlayResX: 1920');
    const events = ass.split('\n').filter((line) => line.startsWith('Dialogue:'));
    expect(events).toHaveLength(5);
    expect(events[0]).toMatch(
      /^Dialogue: 2,0:00:01\.25,0:00:06\.25,Danmaku,.*\{\\move\(1920,0,-?\d+,0\)\\c&H0000FF&\}前方高能 <注意> & "ok"$/,
    );
    // Sent while the first is still entering: the next lane down.
    expect(events[1]).toMatch(/\\move\(1920,54,-?\d+,54\)/);
    expect(events[2]).toContain('{\\an8\\pos(960,0)\\fs72}top line');
    expect(events[3]).toContain('{\\an2\\pos(960,1080)\\c&H7FFF00&\\fs36}下のコメント');
    expect(events[4]).toMatch(/\\move\(-\d+,0,1920,0\)\\c&HFF0000&/);
  });
});
