/**
 * Block-list regular expressions run in every viewer's browser against every danmaku, so one
 * that backtracks catastrophically would freeze the player. This is a conservative static check
 * (shared by the server, which decides, and the settings page, which answers at once):
 *
 * - it must compile with the flags the filters use ('iu');
 * - no backreferences (matching with them is NP-hard);
 * - no nested repetition: a repeated group may not contain another quantifier (star height 1);
 * - a repeated group with alternatives only when they are plain words forming a prefix-free set
 *   (then every text splits one way only, as in a prefix code);
 * - at most two unbounded quantifiers in all (keeps the worst case polynomial and small).
 */
export type RegexVerdict = 'ok' | 'invalid' | 'unsafe';

/** The flags the danmaku filter and the comment filter compile with. */
export const BLOCK_REGEX_FLAGS = 'iu';
const MAX_UNBOUNDED = 2;
/** A bounded repeat this large counts as unbounded. */
const LARGE_REPEAT = 100;

interface Quantifier {
  max: number;
}
interface Node {
  /** Plain word text when the node is a literal character, else null. */
  literal: string | null;
  quantifier: Quantifier | null;
  /** Alternatives of a group (each a sequence), or null for an atom. */
  group: Node[][] | null;
}

class UnsafePattern extends Error {}

function parse(source: string): Node[][] {
  let i = 0;
  const atEnd = () => i >= source.length;

  function readQuantifier(): Quantifier | null {
    const c = source[i];
    let max: number;
    if (c === '*' || c === '+') {
      i += 1;
      max = Infinity;
    } else if (c === '?') {
      i += 1;
      max = 1;
    } else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i));
      if (!m) return null;
      i += m[0].length;
      max = m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3]);
      if (max > LARGE_REPEAT) max = Infinity;
    } else return null;
    if (source[i] === '?') i += 1; // lazy: same backtracking
    return { max };
  }

  function readEscape(): Node {
    const next = source[i + 1] ?? '';
    if (/[1-9]/.test(next) || next === 'k') throw new UnsafePattern('backreference');
    const m = /^\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[pP]\{[^}]*\}|c[A-Za-z]|.)/su.exec(
      source.slice(i),
    );
    const token = m ? m[0] : '\\';
    i += token.length;
    // An escaped punctuation mark is a literal; \d, \w, \p{…} and the like are classes.
    const literal = token.length === 2 && /[^A-Za-z0-9]/.test(token[1]) ? token[1] : null;
    return { literal, quantifier: null, group: null };
  }

  function readClass(): Node {
    i += 1;
    if (source[i] === '^') i += 1;
    if (source[i] === ']') i += 1;
    while (!atEnd() && source[i] !== ']') i += source[i] === '\\' ? 2 : 1;
    i += 1;
    return { literal: null, quantifier: null, group: null };
  }

  function readAlternatives(): Node[][] {
    const alternatives: Node[][] = [[]];
    while (!atEnd() && source[i] !== ')') {
      const c = source[i];
      if (c === '|') {
        i += 1;
        alternatives.push([]);
        continue;
      }
      let node: Node;
      if (c === '(') {
        i += 1;
        const prefix = /^\?(?:<?[=!]|:|<[^>]*>)/.exec(source.slice(i));
        if (prefix) i += prefix[0].length;
        const group = readAlternatives();
        i += 1; // ')'
        node = { literal: null, quantifier: null, group };
      } else if (c === '[') node = readClass();
      else if (c === '\\') node = readEscape();
      else {
        const ch = String.fromCodePoint(source.codePointAt(i)!);
        i += ch.length;
        node = { literal: c === '.' || c === '^' || c === '$' ? null : ch, quantifier: null, group: null };
      }
      node.quantifier = readQuantifier();
      alternatives[alternatives.length - 1].push(node);
    }
    return alternatives;
  }
  return readAlternatives();
}

const hasQuantifier = (seq: Node[]): boolean =>
  seq.some((n) => n.quantifier !== null || (n.group?.some(hasQuantifier) ?? false));
const wordOf = (seq: Node[]): string | null =>
  seq.every((n) => n.literal !== null && n.quantifier === null)
    ? seq
        .map((n) => n.literal)
        .join('')
        .toLowerCase()
    : null;

function isPrefixFree(words: string[]): boolean {
  return words.every((a, x) => a.length > 0 && words.every((b, y) => x === y || !b.startsWith(a)));
}

function check(alternatives: Node[][], counter: { unbounded: number }): void {
  for (const seq of alternatives) {
    for (const node of seq) {
      if (node.quantifier?.max === Infinity) counter.unbounded += 1;
      if (node.group) {
        const repeated = (node.quantifier?.max ?? 1) > 1;
        if (repeated && node.group.some(hasQuantifier)) throw new UnsafePattern('nested repetition');
        if (repeated && node.group.length > 1) {
          const words = node.group.map(wordOf);
          if (words.some((w) => w === null) || !isPrefixFree(words as string[]))
            throw new UnsafePattern('ambiguous repeated alternation');
        }
        check(node.group, counter);
      }
    }
  }
  if (counter.unbounded > MAX_UNBOUNDED) throw new UnsafePattern('too many unbounded quantifiers');
}

/** 'ok', 'invalid' (does not compile) or 'unsafe' (could backtrack catastrophically). */
export function regexVerdict(source: string): RegexVerdict {
  try {
    new RegExp(source, BLOCK_REGEX_FLAGS);
  } catch {
    return 'invalid';
  }
  try {
    check(parse(source), { unbounded: 0 });
    return 'ok';
  } catch (error) {
    if (error instanceof UnsafePattern) return 'unsafe';
    throw error;
  }
}
