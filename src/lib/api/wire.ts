/**
 * What the wire carries, before a schema reads it. The contract's schemas describe JSON types:
 * an id is a JSON number, never `true`, `[[2]]`, `"0x2"`, `" 2 "` or `"2e0"`. A query string
 * (or a path parameter) has no types, only text: where its schema asks for a number, text made
 * of digits alone becomes that number, and anything else stays text, which the schema refuses.
 * So no schema coerces, and a body's fields are taken as they were sent.
 *
 * Also a limit of a JSON body that its schema cannot see: how deep it nests (parsing and walking
 * a value 7000 levels deep overflows the stack).
 */
import type { z } from 'zod';

/** Digits only: no sign, no spaces, no decimal point, no exponent, no hex. */
const DIGITS = /^\d+$/;

/** The innermost schema under optional, default, nullable and the like, and a pipe's input. */
function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema as unknown as { _zod: { def: { type: string; innerType?: unknown; in?: unknown } } };
  for (let i = 0; i < 20; i++) {
    const def = current._zod.def;
    const inner = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
    if (!inner) break;
    current = inner as typeof current;
  }
  return current as unknown as z.ZodType;
}

const typeOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: { type: string } } })._zod.def.type;

/** What a query field's schema wants of its text: a number, numbers, or text as it is. */
function wants(schema: z.ZodType): 'number' | 'numbers' | 'text' {
  const inner = unwrap(schema);
  const type = typeOf(inner);
  if (type === 'number' || type === 'int') return 'number';
  if (type === 'array') {
    const element = (inner as unknown as { _zod: { def: { element: z.ZodType } } })._zod.def.element;
    return wants(element) === 'number' ? 'numbers' : 'text';
  }
  return 'text';
}

/** The fields of an object schema (under any wrapper), or none. */
function fieldsOf(schema: z.ZodType): Record<string, z.ZodType> {
  const inner = unwrap(schema);
  return typeOf(inner) === 'object'
    ? (inner as unknown as { _zod: { def: { shape: Record<string, z.ZodType> } } })._zod.def.shape
    : {};
}

const number = (text: string): number | string => (DIGITS.test(text) ? Number(text) : text);

/**
 * A query string's values as its schema's types: digit-only text becomes a number where the field
 * is a number (each value where it is a list of numbers; a single value is a list of one). The
 * rest is left as it came, for the schema to judge.
 */
export function queryValues(schema: z.ZodType, raw: Record<string, string | string[]>): Record<string, unknown> {
  const fields = fieldsOf(schema);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    const field = Object.hasOwn(fields, key) ? fields[key] : undefined;
    const want = field ? wants(field) : 'text';
    if (want === 'number') out[key] = Array.isArray(value) ? value : number(value);
    else if (want === 'numbers') out[key] = (Array.isArray(value) ? value : [value]).map(number);
    else out[key] = value;
  }
  return out;
}

/** Deepest nesting of arrays and objects a JSON body may have: well past any the contract describes. */
export const MAX_JSON_DEPTH = 32;

/**
 * How deep the JSON text nests its arrays and objects, read without parsing (a loop, no recursion),
 * stopping as soon as it passes `limit`. Brackets inside strings do not count.
 */
export function jsonDepthExceeds(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92 /* \ */) i++;
      else if (ch === 34 /* " */) inString = false;
    } else if (ch === 34) inString = true;
    else if (ch === 91 /* [ */ || ch === 123 /* { */) {
      if (++depth > limit) return true;
    } else if (ch === 93 /* ] */ || ch === 125 /* } */) depth--;
  }
  return false;
}
