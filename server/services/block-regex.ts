import { Worker } from 'node:worker_threads';
import type { RegexAnswer, RegexJob } from './block-regex.worker.ts';

/**
 * How long one text may take against a viewer's expressions. The safety check (regex-safety.ts)
 * rules out exponential patterns, not polynomial ones: `a*a*b` over 5,000 characters of "a"
 * runs for over a minute. A text not decided in time counts as matching (a block list fails
 * closed), and the worker running it is replaced.
 */
export const REGEX_TEXT_BUDGET_MS = 250;
/** All texts of one answer together; those not reached by then also count as matching. */
export const REGEX_LIST_BUDGET_MS = 1500;

let worker: Promise<Worker> | null = null;
let nextId = 1;
/** One list at a time, so one viewer's slow texts never eat another's budget. */
let tail: Promise<unknown> = Promise.resolve();

/** The running worker, started when first needed (its start-up is never charged to a text). */
function readyWorker(): Promise<Worker> {
  if (!worker) {
    const starting = new Promise<Worker>((resolve, reject) => {
      const w = new Worker(new URL('./block-regex.worker.ts', import.meta.url));
      w.unref(); // never keeps the process alive
      w.once('message', () => resolve(w)); // 'ready'
      w.once('error', reject);
      w.once('exit', () => {
        if (worker === starting) worker = null;
      });
    });
    worker = starting;
  }
  return worker;
}

/** One text in the worker; null when it was not decided within `budgetMs` (the worker is then replaced). */
async function matchOne(sources: string[], text: string, budgetMs: number): Promise<boolean | null> {
  const w = await readyWorker();
  const id = nextId++;
  return new Promise((resolve) => {
    const onMessage = (answer: RegexAnswer) => {
      if (answer.id !== id) return;
      clearTimeout(timer);
      w.off('message', onMessage);
      resolve(answer.hit);
    };
    const timer = setTimeout(() => {
      w.off('message', onMessage);
      worker = null;
      void w.terminate();
      resolve(null);
    }, budgetMs);
    w.on('message', onMessage);
    w.postMessage({ id, sources, text } satisfies RegexJob);
  });
}

/**
 * For each text, whether one of the expressions matches it (true also when that could not be
 * decided within the budgets above). The expressions are block-list entries that passed
 * regexVerdict; an invalid one never matches.
 */
export function matchBlockRegexes(sources: string[], texts: string[]): Promise<boolean[]> {
  if (!sources.length || !texts.length) return Promise.resolve(texts.map(() => false));
  const run = async () => {
    await readyWorker();
    const deadline = performance.now() + REGEX_LIST_BUDGET_MS;
    const hits: boolean[] = [];
    for (const text of texts) {
      const left = deadline - performance.now();
      hits.push(left <= 0 ? true : ((await matchOne(sources, text, Math.min(REGEX_TEXT_BUDGET_MS, left))) ?? true));
    }
    return hits;
  };
  const result = tail.then(run, run);
  tail = result.catch(() => undefined);
  return result;
}
