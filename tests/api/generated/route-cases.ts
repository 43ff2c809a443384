/**
 * Test cases generated from the route table: a plausible input for each endpoint (from its
 * schema), and hostile variants of it. The table's own schema is the oracle of what must be
 * refused: the suites compare the server's answer with what the schema says of each case.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ROUTES } from '#lib/api/routes/index.ts';
import { splitRouteKey, type RouteDef } from '#lib/api/route.ts';
import { ERROR_MESSAGE_KEY, type ErrorCode } from '#lib/api/errors.ts';
import { stripControlCharacters } from '#lib/validation/text.ts';
import { queryValues } from '#lib/api/wire.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: Json[];
  const?: Json;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  minLength?: number;
  minItems?: number;
  format?: string;
  default?: Json;
  pattern?: string;
};

export const API_ROUTES = Object.entries(ROUTES) as Array<[string, RouteDef]>;
/** Endpoints whose input the table's middleware reads (raw ones speak their own protocol); streams too. */
export const JSON_ROUTES = API_ROUTES.filter(([, def]) => !def.raw);

/**
 * The text of an answer. A stream entry that opened (200, text/event-stream) never ends by itself:
 * its headers are the answer, and the stream is closed.
 */
export async function answerText(response: Response): Promise<string> {
  if (response.ok && response.headers.get('content-type')?.startsWith('text/event-stream')) {
    await response.body?.cancel();
    return '';
  }
  return response.text();
}

const jsonSchemaOf = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;

/** Known formats of the contract's text fields, so the plausible input passes where it can. */
const PATTERN_SAMPLES: Array<[RegExp, string]> = [
  [/^\^\\d\{6\}\$$/, '123456'],
  [/KIRA/, 'KIRA-AAAA-BBBB'],
  [/\[0-9a-f\]\{24\}/, '0123456789abcdef01234567'],
  [/\\d\{1,15\}\\\.\\d/, '1.1'],
  [/0-9a-fA-F\]\{6\}/, 'ff0000'],
];

/** A plausible value for a schema: the first choice, the smallest number, a short text. */
export function sample(schema: JsonSchema | undefined): Json {
  if (!schema) return null;
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  const choice = schema.anyOf ?? schema.oneOf;
  if (choice?.length) return sample(choice.find((s) => s.type !== 'null') ?? choice[0]);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string': {
      if (schema.format === 'email') return 'someone@example.com';
      if (schema.format === 'uri') return 'https://example.com/';
      if (schema.format === 'date') return '2000-01-01';
      const known = schema.pattern && PATTERN_SAMPLES.find(([re]) => re.test(schema.pattern!));
      if (known) return known[1];
      return 'a'.repeat(Math.max(1, schema.minLength ?? 1));
    }
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1, (schema.exclusiveMinimum ?? 0) + 1);
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => sample(schema.items));
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, sample(s)]));
    default:
      return 'a';
  }
}

/** The plausible input of an endpoint (query object or body). */
export function plausibleInput(def: RouteDef): Record<string, Json> | undefined {
  const schema = def.query ?? def.body;
  return schema ? (sample(jsonSchemaOf(schema)) as Record<string, Json>) : undefined;
}

const MEGABYTE = 'x'.repeat(1024 * 1024);
const TEN_KB = 'q'.repeat(10 * 1024);

/** Values no field should take blindly: every JSON type, edge numbers, huge and control-laden text. */
const HOSTILE_VALUES: Array<[string, Json]> = [
  ['empty string', ''],
  ['1 MB string', MEGABYTE],
  ['NUL in text', 'a\u0000b'],
  ['bell in text', '\u0007'],
  ['number past 2^53', 2 ** 53 + 2],
  ['2^53+1 as text', '9007199254740993'],
  ['NaN as text', 'NaN'],
  ['Infinity as text', 'Infinity'],
  ['negative id', -1],
  ['fractional id', 1.5],
  ['zero', 0],
  ['unknown enum value', 'no-such-value'],
  ['true', true],
  ['null', null],
  ['array', ['a']],
  ['object', { a: 1 }],
  ['number', 12345],
];
const HOSTILE_QUERY_VALUES: Array<[string, string | string[]]> = [
  ['empty', ''],
  ['10 KB', TEN_KB],
  ['NUL', 'a\u0000b'],
  ['2^53+1', '9007199254740993'],
  ['NaN', 'NaN'],
  ['Infinity', 'Infinity'],
  ['-1', '-1'],
  ['1.5', '1.5'],
  ['unknown enum value', 'no-such-value'],
  ['repeated', ['1', '2']],
  ['unicode', '弾幕🎌'],
  // Numbers only as digits: none of these is one.
  ['hex', '0x2'],
  ['padded', ' 2 '],
  ['exponent', '2e0'],
  ['signed', '+2'],
  ['true', 'true'],
];

export interface HostileCase {
  route: string;
  name: string;
  /** Query parameters (GET) or the raw body text and its type (the rest). */
  query?: Record<string, string | string[]>;
  body?: string;
  contentType?: string;
  /** What the table's schema says of this input: refused (4xx) or accepted (the handler decides). */
  schemaRefuses: boolean;
  /** Refusals that come before the schema (body size, type, syntax): the status expected. */
  expectStatus?: number;
}

const refuses = (schema: z.ZodType | undefined, value: unknown) => !!schema && !schema.safeParse(value).success;
const hasControl = (value: Json): boolean =>
  typeof value === 'string'
    ? stripControlCharacters(value) !== value
    : Array.isArray(value)
      ? value.some(hasControl)
      : value && typeof value === 'object'
        ? Object.entries(value).some(([k, v]) => hasControl(k) || hasControl(v))
        : false;

/** A call that takes no input: whatever body comes is ignored, and must break nothing. */
function noInputCases(route: string): HostileCase[] {
  return [
    { route, name: 'no body', schemaRefuses: false },
    { route, name: 'unexpected JSON body', body: '{"a":1}', contentType: 'application/json', schemaRefuses: false },
    { route, name: 'malformed JSON body', body: '{"a":', contentType: 'application/json', schemaRefuses: false },
    { route, name: 'text body', body: 'a\u0000b', contentType: 'text/plain', schemaRefuses: false },
  ];
}

function bodyCases(route: string, def: RouteDef): HostileCase[] {
  if (!def.body) return noInputCases(route);
  const base = (plausibleInput(def) ?? {}) as Record<string, Json>;
  const json = (name: string, value: Json): HostileCase => {
    const body = JSON.stringify(value);
    // Past every endpoint's limit, unless this one takes files in its body (subtitles, danmaku XML).
    const tooLarge = Buffer.byteLength(body) > Math.max(256 * 1024, def.maxBodyBytes ?? 0);
    return {
      route,
      name,
      body,
      contentType: 'application/json',
      schemaRefuses: tooLarge || hasControl(value) || refuses(def.body, value),
      expectStatus: tooLarge ? 413 : undefined,
    };
  };
  const cases: HostileCase[] = [
    json('plausible input', base),
    json('extra field', { ...base, unexpectedField: 'x' }),
    json('array instead of object', [base]),
    json('null body', null),
    json('empty object', {}),
    {
      route,
      name: 'malformed JSON',
      body: '{"videoId": 1,',
      contentType: 'application/json',
      schemaRefuses: true,
      expectStatus: 400,
    },
    {
      route,
      name: 'wrong Content-Type',
      body: JSON.stringify(base),
      contentType: 'text/plain',
      schemaRefuses: true,
      expectStatus: 415,
    },
    {
      route,
      name: 'form instead of JSON',
      body: 'a=1&b=2',
      contentType: 'application/x-www-form-urlencoded',
      schemaRefuses: true,
      expectStatus: 415,
    },
    { route, name: 'no body', schemaRefuses: refuses(def.body, {}) },
  ];
  for (const field of Object.keys(base)) {
    const { [field]: _, ...without } = base;
    cases.push(json(`${field}: missing`, without));
    for (const [label, value] of HOSTILE_VALUES) cases.push(json(`${field}: ${label}`, { ...base, [field]: value }));
  }
  return cases;
}

function queryCases(route: string, def: RouteDef): HostileCase[] {
  const base = Object.fromEntries(
    Object.entries(plausibleInput(def) ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v.map(String) : String(v)]),
  ) as Record<string, string | string[]>;
  // What the server parses: control characters are stripped from query values first, then digits become numbers where the schema wants them.
  const clean = (query: Record<string, string | string[]>) => {
    const stripped = Object.fromEntries(
      Object.entries(query).map(([k, v]) => [
        k,
        Array.isArray(v) ? v.map(stripControlCharacters) : stripControlCharacters(v),
      ]),
    );
    return def.query ? queryValues(def.query, stripped) : stripped;
  };
  const of = (name: string, query: Record<string, string | string[]>): HostileCase => ({
    route,
    name,
    query,
    schemaRefuses: refuses(def.query, clean(query)),
  });
  const cases = [
    of('plausible input', base),
    of('no parameters', {}),
    of('10 KB unknown parameter', { ...base, padding: TEN_KB }),
  ];
  for (const field of Object.keys(base)) {
    const { [field]: _, ...without } = base;
    cases.push(of(`${field}: missing`, without));
    for (const [label, value] of HOSTILE_QUERY_VALUES)
      cases.push(of(`${field}: ${label}`, { ...base, [field]: value }));
  }
  return cases;
}

/** Every hostile case of every JSON endpoint of the table. */
export function hostileCases(): HostileCase[] {
  return JSON_ROUTES.flatMap(([route, def]) =>
    splitRouteKey(route)[0] === 'GET' ? queryCases(route, def) : bodyCases(route, def),
  );
}

/** The URL and init of a case, with the caller's language and an address of its own. */
export function requestOf(
  baseUrl: string,
  c: { route: string; query?: Record<string, string | string[]>; body?: string; contentType?: string },
  headers: Record<string, string>,
) {
  const [method, path] = splitRouteKey(c.route);
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(c.query ?? {}))
    for (const value of Array.isArray(v) ? v : [v]) params.append(k, value);
  const qs = params.toString();
  return {
    url: `${baseUrl}/api/${path}${qs ? `?${qs}` : ''}`,
    init: {
      method,
      headers: { ...headers, ...(c.contentType ? { 'Content-Type': c.contentType } : {}) },
      body: c.body,
      signal: AbortSignal.timeout(20_000),
    } satisfies RequestInit,
  };
}

const LOCALES = ['zhs', 'zht', 'en', 'ja', 'ko', 'vi', 'id', 'fr', 'yue'] as const;
export type CatalogLocaleCode = (typeof LOCALES)[number];
export const localeFor = (index: number) => LOCALES[index % LOCALES.length];

const catalogs = new Map<string, Record<string, Record<string, string>>>();
/** The message a code must carry in a language, read from the catalog files themselves. */
export function expectedMessage(locale: CatalogLocaleCode, code: ErrorCode): string {
  let catalog = catalogs.get(locale);
  if (!catalog)
    catalogs.set(
      locale,
      (catalog = JSON.parse(readFileSync(join(process.cwd(), 'src', 'i18n', `${locale}.json`), 'utf8'))),
    );
  const [ns, key] = ERROR_MESSAGE_KEY[code].split('.');
  return catalog![ns][key];
}

// ---- Type confusion, deep nesting and control characters in paths (issue 24) ----

/** Where a value sits in an input: keys and array indexes. */
type FieldPath = Array<string | number>;
interface Field {
  path: FieldPath;
  schema: JsonSchema;
  value: Json;
}

const typesOf = (schema: JsonSchema): string[] => {
  const choice = schema.anyOf ?? schema.oneOf;
  if (choice) return choice.flatMap(typesOf);
  if (schema.const !== undefined) return [typeof schema.const === 'number' ? 'number' : typeof schema.const];
  if (schema.enum) return [...new Set(schema.enum.map((v) => (v === null ? 'null' : typeof v)))];
  return Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
};

/** Every field of a plausible input, nested ones included (the first item of each list stands for all). */
function fieldsOf(schema: JsonSchema | undefined, value: Json, path: FieldPath = []): Field[] {
  if (!schema) return [];
  const choice = schema.anyOf ?? schema.oneOf;
  const own = choice ? (choice.find((s) => s.type !== 'null') ?? schema) : schema;
  const fields: Field[] = path.length ? [{ path, schema, value }] : [];
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, item] of Object.entries(value))
      fields.push(...fieldsOf(own.properties?.[key], item, [...path, key]));
  } else if (Array.isArray(value) && value.length) fields.push(...fieldsOf(own.items, value[0], [...path, 0]));
  return fields;
}

function withValue(base: Json, path: FieldPath, value: Json): Json {
  const copy = structuredClone(base) as Record<string | number, Json>;
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, Json>;
  at[path.at(-1)!] = value;
  return copy;
}

/** What the wire can send instead of a field's value: other JSON types, and a number's lookalikes. */
const CONFUSED_ANY: Array<[string, (v: Json) => Json]> = [
  ['true', () => true],
  ['false', () => false],
  ['in an array', (v) => [v]],
  ['in a nested array', (v) => [[v]]],
];
const CONFUSED_NUMBER: Array<[string, Json]> = [
  ['digits as text', '2'],
  ['hex text', '0x2'],
  ['padded text', ' 2 '],
  ['exponent text', '2e0'],
  ['signed text', '+2'],
  ['decimal text', '2.0'],
  ['float', 2.5],
  ['past 2^53', 2 ** 53 + 2],
  ['1e308', 1e308],
  ['negative', -2],
  ['empty object', {}],
];
const CONFUSED_TEXT: Array<[string, Json]> = [
  ['number', 2],
  ['object', { a: 'b' }],
];

/**
 * Whether JSON's own type of a value is one the field's schema allows: an id is a JSON number, so
 * '2', true or [2] never is one, whatever the server would make of it. The oracle beside the
 * schema's, so a schema that coerced would be caught.
 */
function typeAllowed(schema: JsonSchema, value: Json): boolean {
  const types = typesOf(schema);
  if (!types.length) return true;
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  if (type === 'number') return types.includes('number') || (types.includes('integer') && Number.isInteger(value));
  return types.includes(type);
}

export interface ConfusedCase {
  route: string;
  name: string;
  body: string;
}

/**
 * Type confusion for every field (nested ones too) of every JSON-body endpoint: other JSON types
 * for every field; for numbers, text that looks like one (hex, exponent, padded, signed), floats
 * and numbers out of range. Only cases the table refuses are kept (by its schema, or because
 * JSON's type is not the field's): each must be answered 4xx, and none may change anything.
 */
export function typeConfusionCases(): ConfusedCase[] {
  const cases: ConfusedCase[] = [];
  for (const [route, def] of JSON_ROUTES) {
    if (!def.body || splitRouteKey(route)[0] === 'GET') continue;
    const schema = jsonSchemaOf(def.body);
    const base = sample(schema);
    for (const field of fieldsOf(schema, base)) {
      const types = typesOf(field.schema);
      const numeric = types.includes('integer') || types.includes('number');
      const values: Array<[string, Json]> = [
        ...CONFUSED_ANY.map(([label, make]) => [label, make(field.value)] as [string, Json]),
        ...(numeric ? CONFUSED_NUMBER : types.includes('string') ? CONFUSED_TEXT : []),
      ];
      for (const [label, value] of values) {
        const input = withValue(base, field.path, value);
        if (!typeAllowed(field.schema, value) || refuses(def.body, input))
          cases.push({ route, name: `${field.path.join('.')}: ${label}`, body: JSON.stringify(input) });
      }
    }
  }
  return cases;
}

/** JSON nested far past any limit (14 KB, under every body limit): arrays, and objects in objects. */
export const DEEP_ARRAYS = `${'['.repeat(7000)}${']'.repeat(7000)}`;
export const DEEP_OBJECTS = `${'{"a":'.repeat(2500)}1${'}'.repeat(2500)}`;

/** Control characters as a path can carry them: encoded NUL, other encoded controls. */
const PATH_CONTROLS = ['%00', '%01', '%1F', '%7F'];

/**
 * Every path segment of every endpoint of the table (tus ones included) and of the media paths,
 * with a control character in it: replacing the segment, and inside it.
 */
export function controlPathCases(apiPrefix = '/api'): Array<{ name: string; method: string; path: string }> {
  const mediaId = '0123456789abcdef01234567';
  const paths: Array<[string, string]> = [
    ...API_ROUTES.map(([route]) => {
      const [method, path] = splitRouteKey(route);
      return [method, `${apiPrefix}/${path.replace(/:\w+/g, 'abc')}`] as [string, string];
    }),
    ...[
      `/media/hls/${mediaId}/master.m3u8`,
      '/media/videos/1/master.m3u8',
      '/media/photos/1/w640.webp',
      '/media/avatars/a.webp',
    ].map((p) => ['GET', p] as [string, string]),
  ];
  const cases = new Map<string, { name: string; method: string; path: string }>();
  for (const [method, path] of paths) {
    const segments = path.split('/');
    for (let i = 1; i < segments.length; i++) {
      const control = PATH_CONTROLS[i % PATH_CONTROLS.length];
      for (const segment of [control, `${segments[i].slice(0, 1)}${control}${segments[i].slice(1)}`]) {
        // Once per method and segment so far: `/api/%00/…` is the same case for every endpoint.
        const key = `${method} ${[...segments.slice(0, i), segment].join('/')}`;
        const full = segments.with(i, segment).join('/');
        if (!cases.has(key)) cases.set(key, { name: `${method} ${full}`, method, path: full });
      }
    }
  }
  return [...cases.values()];
}
