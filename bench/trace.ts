/**
 * Thread time from a Chromium trace (CDP Tracing through Playwright): how busy the page's main
 * thread and its dedicated worker were between two `performance.mark`s the page sets. Busy time
 * is steadier than fps on a shared machine (it does not count frames lost to other processes).
 */
import type { BrowserContext, Page } from 'playwright-core';

export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

/** Tasks, and a worker's animation frames and canvas commits (only under the devtools.timeline categories); marks. */
const CATEGORIES = 'toplevel,devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing';

/** Starts tracing the page; the function returned ends it and gives the events. */
export async function startTrace(context: BrowserContext, page: Page): Promise<() => Promise<TraceEvent[]>> {
  const cdp = await context.newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (d) => events.push(...(d.value as unknown as TraceEvent[])));
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
  return async () => {
    await cdp.send('Tracing.end');
    await complete;
    await cdp.detach().catch(() => undefined);
    return events;
  };
}

/**
 * Busy ms of the thread that set the marks and of the dedicated worker in the same process,
 * between the marks `start` and `end`: the union of the spans of each thread's complete events
 * (top-level ones cover the nested).
 */
export function busyBetween(
  events: TraceEvent[],
  start: string,
  end: string,
): { windowMs: number; mainMs: number; workerMs?: number } | undefined {
  const from = events.find((e) => e.name === start);
  const to = events.find((e) => e.name === end);
  if (!from || !to) return undefined;
  const busy = (pid: number, tid: number) => {
    const spans = events
      .filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X' && e.dur)
      .map((e) => [Math.max(e.ts, from.ts), Math.min(e.ts + e.dur!, to.ts)] as const)
      .filter(([a, b]) => b > a)
      .sort((a, b) => a[0] - b[0]);
    let us = 0;
    let reached = -Infinity;
    for (const [a, b] of spans) {
      if (b <= reached) continue;
      us += b - Math.max(a, reached);
      reached = b;
    }
    return us / 1000;
  };
  const worker = events.find(
    (e) =>
      e.ph === 'M' && e.name === 'thread_name' && e.pid === from.pid && e.args?.name?.startsWith('DedicatedWorker'),
  );
  return {
    windowMs: (to.ts - from.ts) / 1000,
    mainMs: busy(from.pid, from.tid),
    workerMs: worker ? busy(worker.pid, worker.tid) : undefined,
  };
}
