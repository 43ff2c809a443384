import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { ROUTES } from '../../src/lib/api/routes/index.ts';
import type { RouteDef } from '../../src/lib/api/route.ts';
import { jsonDepthExceeds, MAX_JSON_DEPTH, queryValues } from '../../src/lib/api/wire.ts';
import { pagedQuery, positiveId, shownText } from '../../src/lib/api/contracts/common.ts';
import { tagSearchVideosBody } from '../../src/lib/api/contracts/video.ts';
import { stripInvisibleFormatting } from '../../src/lib/validation/text.ts';

/** Every schema reachable from a schema's definition (objects, arrays, wrappers, unions, pipes). */
function* schemasIn(schema: unknown, seen = new Set<unknown>()): Generator<{ _zod: { def: Record<string, unknown> } }> {
  if (!schema || typeof schema !== 'object' || seen.has(schema) || !('_zod' in schema)) return;
  seen.add(schema);
  const node = schema as { _zod: { def: Record<string, unknown> } };
  yield node;
  for (const value of Object.values(node._zod.def)) {
    if (Array.isArray(value)) for (const item of value) yield* schemasIn(item, seen);
    else if (value && typeof value === 'object' && '_zod' in value) yield* schemasIn(value, seen);
    else if (value && typeof value === 'object') for (const item of Object.values(value)) yield* schemasIn(item, seen);
  }
}

describe('types at the edge of the wire', () => {
  test('no input schema of the route table coerces: a body is taken as JSON typed it', () => {
    for (const [key, def] of Object.entries(ROUTES) as Array<[string, RouteDef]>) {
      for (const schema of [def.query, def.body]) {
        for (const node of schemasIn(schema)) expect(node._zod.def.coerce, key).not.toBe(true);
      }
    }
  });

  test('an id is a JSON number, never text or a boolean or a list that looks like one', () => {
    for (const value of [true, [[2]], [2], '0x2', ' 2 ', '2e0', '2', 2.5, 0, -2, 2 ** 53, null])
      expect(positiveId.safeParse(value).success, JSON.stringify(value)).toBe(false);
    expect(positiveId.parse(2)).toBe(2);
    expect(tagSearchVideosBody.safeParse({ tagId: [1], page: '2' }).success).toBe(false);
  });

  test('a query string gives numbers from digits alone, where its schema wants numbers', () => {
    const schema = pagedQuery().extend({
      uid: positiveId,
      tagId: z.array(positiveId).optional(),
      keyword: z.string().optional(),
    });
    expect(queryValues(schema, { uid: '12', page: '3', keyword: '42', tagId: '7' })).toEqual({
      uid: 12,
      page: 3,
      keyword: '42',
      tagId: [7],
    });
    for (const text of ['0x2', ' 2 ', '2e0', '+2', '-2', '2.0', '', '١٢']) {
      expect(queryValues(schema, { uid: text }).uid).toBe(text);
      expect(schema.safeParse(queryValues(schema, { uid: text })).success, text).toBe(false);
    }
    expect(queryValues(schema, { tagId: ['1', 'x'] }).tagId).toEqual([1, 'x']);
  });

  test(`measures JSON nesting without parsing it, brackets in text not counted (limit ${MAX_JSON_DEPTH})`, () => {
    expect(jsonDepthExceeds('['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonDepthExceeds('['.repeat(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonDepthExceeds(`{"a":"${'['.repeat(100)}"}`)).toBe(false);
    expect(jsonDepthExceeds(`{"a":"\\"${'{'.repeat(100)}\\\\"}`)).toBe(false);
    expect(jsonDepthExceeds(`{"a":"\\\\"${'['.repeat(100)}`)).toBe(true);
    expect(jsonDepthExceeds('{"a":'.repeat(100_000))).toBe(true);
  });

  test('removes bidi controls and zero-width characters from shown text, keeping emoji sequences whole', () => {
    expect(stripInvisibleFormatting('\u202Etxt.exe\u202C')).toBe('txt.exe');
    expect(stripInvisibleFormatting('a\u200Bb\u200Cc\u200Dd\u2060e\uFEFFf\u200Eg\u200Fh\u2066i\u2069')).toBe(
      'abcdefghi',
    );
    for (const emoji of ['👩\u200D💻', '👨\u200D👩\u200D👧', '🏳️\u200D🌈', '👍🏽\u200D🔥'])
      expect(stripInvisibleFormatting(emoji)).toBe(emoji);
    expect(stripInvisibleFormatting('\u200D👩')).toBe('👩');
    expect(stripInvisibleFormatting('弹幕 é ñ 😀 \t\n')).toBe('弹幕 é ñ 😀 \t\n');
    // In a schema, before the length rules: only invisible text is empty text.
    expect(shownText().trim().min(1).safeParse('\u200B\u202E ').success).toBe(false);
  });
});
