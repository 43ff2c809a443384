/**
 * Runs block-list expressions against texts off the main thread (see block-regex.ts): a
 * pattern that passed the safety check can still take polynomial time on a 20,000-character
 * comment, and here it can be stopped without stalling the server.
 */
import { parentPort } from 'node:worker_threads';
import { compileBlockRegexes, matchesAnyRegex } from '../../src/lib/block-lists/text-blocks.ts';

export interface RegexJob {
  id: number;
  sources: string[];
  text: string;
}
export interface RegexAnswer {
  id: number;
  hit: boolean;
}

let compiled: { key: string; regexes: RegExp[] } = { key: '', regexes: [] };

parentPort!.on('message', ({ id, sources, text }: RegexJob) => {
  const key = JSON.stringify(sources);
  if (compiled.key !== key) compiled = { key, regexes: compileBlockRegexes(sources) };
  parentPort!.postMessage({ id, hit: matchesAnyRegex(text, compiled.regexes) } satisfies RegexAnswer);
});
parentPort!.postMessage('ready');
