/**
 * Test cases generated from the route table: a plausible input for each endpoint (from its
 * schema), and hostile variants of it. The table's own schema is the oracle of what must be
 * refused: the suites compare the server's answer with what the schema says of each case.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ROUTES } from '../../../src/lib/api/routes/index.ts';
import { splitRouteKey, type RouteDef } from '../../../src/lib/api/route.ts';
import { ERROR_MESSAGE_KEY, type ErrorCode } from '../../../src/lib/api/errors.ts';
import { stripControlCharacters } from '../../../src/lib/validation/text.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonSchema = { type?: string | string[]; properties?: Record<string, JsonSchema>; required?: string[]; items?: JsonSchema; enum?: Json[]; const?: Json;
  anyOf?: JsonSchema[]; oneOf?: JsonSchema[]; minimum?: number; exclusiveMinimum?: number; maximum?: number; minLength?: number; minItems?: number; format?: string; default?: Json; pattern?: string };

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

const jsonSchemaOf = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;

/** Known formats of the contract's text fields, so the plausible input passes where it can. */
const PATTERN_SAMPLES: Array<[RegExp, string]> = [
  [/^\^\\d\{6\}\$$/, '123456'], [/KIRA/, 'KIRA-AAAA-BBBB'], [/\[0-9a-f\]\{24\}/, '0123456789abcdef01234567'],
  [/\\d\{1,15\}\\\.\\d/, '1.1'], [/0-9a-fA-F\]\{6\}/, 'ff0000'],
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
    case 'number': return Math.max(1, schema.minimum ?? 1, (schema.exclusiveMinimum ?? 0) + 1);
    case 'boolean': return false;
    case 'array': return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => sample(schema.items));
    case 'object': return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, sample(s)]));
    default: return 'a';
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
  ['empty string', ''], ['1 MB string', MEGABYTE], ['NUL in text', 'a\u0000b'], ['bell in text', '\u0007'],
  ['number past 2^53', 2 ** 53 + 2], ['2^53+1 as text', '9007199254740993'], ['NaN as text', 'NaN'], ['Infinity as text', 'Infinity'],
  ['negative id', -1], ['fractional id', 1.5], ['zero', 0], ['unknown enum value', 'no-such-value'],
  ['true', true], ['null', null], ['array', ['a']], ['object', { a: 1 }], ['number', 12345],
];
const HOSTILE_QUERY_VALUES: Array<[string, string | string[]]> = [
  ['empty', ''], ['10 KB', TEN_KB], ['NUL', 'a\u0000b'], ['2^53+1', '9007199254740993'], ['NaN', 'NaN'], ['Infinity', 'Infinity'],
  ['-1', '-1'], ['1.5', '1.5'], ['unknown enum value', 'no-such-value'], ['repeated', ['1', '2']], ['unicode', '弾幕🎌'],
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
const hasControl = (value: Json): boolean => typeof value === 'string' ? stripControlCharacters(value) !== value
  : Array.isArray(value) ? value.some(hasControl) : !!value && typeof value === 'object' ? Object.entries(value).some(([k, v]) => hasControl(k) || hasControl(v)) : false;

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
    const tooLarge = Buffer.byteLength(body) > 256 * 1024;
    return { route, name, body, contentType: 'application/json', schemaRefuses: tooLarge || hasControl(value) || refuses(def.body, value), expectStatus: tooLarge ? 413 : undefined };
  };
  const cases: HostileCase[] = [
    json('plausible input', base),
    json('extra field', { ...base, unexpectedField: 'x' }),
    json('array instead of object', [base]),
    json('null body', null),
    json('empty object', {}),
    { route, name: 'malformed JSON', body: '{"videoId": 1,', contentType: 'application/json', schemaRefuses: true, expectStatus: 400 },
    { route, name: 'wrong Content-Type', body: JSON.stringify(base), contentType: 'text/plain', schemaRefuses: true, expectStatus: 415 },
    { route, name: 'form instead of JSON', body: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded', schemaRefuses: true, expectStatus: 415 },
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
  const base = Object.fromEntries(Object.entries(plausibleInput(def) ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v.map(String) : String(v)])) as Record<string, string | string[]>;
  // What the server parses: control characters are stripped from query values first.
  const clean = (query: Record<string, string | string[]>) => Object.fromEntries(Object.entries(query).map(([k, v]) => [k, Array.isArray(v) ? v.map(stripControlCharacters) : stripControlCharacters(v)]));
  const of = (name: string, query: Record<string, string | string[]>): HostileCase => ({ route, name, query, schemaRefuses: refuses(def.query, clean(query)) });
  const cases = [of('plausible input', base), of('no parameters', {}), of('10 KB unknown parameter', { ...base, padding: TEN_KB })];
  for (const field of Object.keys(base)) {
    const { [field]: _, ...without } = base;
    cases.push(of(`${field}: missing`, without));
    for (const [label, value] of HOSTILE_QUERY_VALUES) cases.push(of(`${field}: ${label}`, { ...base, [field]: value }));
  }
  return cases;
}

/** Every hostile case of every JSON endpoint of the table. */
export function hostileCases(): HostileCase[] {
  return JSON_ROUTES.flatMap(([route, def]) => (splitRouteKey(route)[0] === 'GET' ? queryCases(route, def) : bodyCases(route, def)));
}

/** The URL and init of a case, with the caller's language and an address of its own. */
export function requestOf(baseUrl: string, c: { route: string; query?: Record<string, string | string[]>; body?: string; contentType?: string }, headers: Record<string, string>) {
  const [method, path] = splitRouteKey(c.route);
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(c.query ?? {})) for (const value of Array.isArray(v) ? v : [v]) params.append(k, value);
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
  if (!catalog) catalogs.set(locale, (catalog = JSON.parse(readFileSync(join(process.cwd(), 'src', 'i18n', `${locale}.json`), 'utf8'))));
  const [ns, key] = ERROR_MESSAGE_KEY[code].split('.');
  return catalog![ns][key];
}
