/**
 * "@username" in comment text (issue 27). Names may hold single spaces, so each "@" proposes
 * every run of its words up to the longest name allowed; the server keeps the longest that names
 * a member, and the page links exactly the names the server resolved (never a guess of its own).
 */
import { NAME_CHAR, NAME_MAX } from './account.ts';

const MENTION = new RegExp(`@(${NAME_CHAR}+(?: ${NAME_CHAR}+)*)`, 'gv');

/** Every name an "@" in `text` may mean (lower-cased), longest first per "@". */
export function mentionCandidatesIn(text: string): string[][] {
  return [...text.normalize('NFC').matchAll(MENTION)].map((match) => {
    const words = match[1].split(' ');
    const names: string[] = [];
    for (let n = 1; n <= words.length; n++) {
      const name = words.slice(0, n).join(' ');
      if ([...name].length > NAME_MAX) break;
      names.unshift(name.toLowerCase());
    }
    return names;
  });
}

/** The names `text` mentions among `known` (lower-cased names): for each "@", the longest one known. */
export function resolveMentions(text: string, known: ReadonlySet<string>): string[] {
  const found = mentionCandidatesIn(text).flatMap((names) => names.find((name) => known.has(name)) ?? []);
  return [...new Set(found)];
}

export type MentionPiece = string | { uid: number; text: string };

/** Splits a text node into plain text and the "@name" of the resolved mentions (case-insensitive), longest names first. */
export function splitMentions(
  text: string,
  mentions: ReadonlyArray<{ uid: number; username: string }>,
): MentionPiece[] {
  if (!mentions.length || !text.includes('@')) return [text];
  const byName = new Map(mentions.map((m) => [m.username.toLowerCase(), m.uid]));
  const names = [...byName.keys()]
    .sort((a, b) => b.length - a.length)
    .map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = new RegExp(`@(${names.join('|')})`, 'giu');
  const pieces: MentionPiece[] = [];
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) pieces.push(text.slice(last, match.index));
    pieces.push({ uid: byName.get(match[1].toLowerCase())!, text: match[0] });
    last = match.index + match[0].length;
  }
  if (last < text.length) pieces.push(text.slice(last));
  return pieces;
}
