/**
 * Comments waiting for a lane. Those that need the same kind of room (one mode, one number of
 * lanes) wait in one line, first come first served; only the first of each line is scheduled,
 * at the video time the run of lanes it fits frees, in a binary min-heap of those times. So a
 * lane that frees wakes one comment, not every comment that waits (a flood would otherwise
 * retry hundreds on every lane that frees), and queueing costs O(1), waking O(log lines).
 */
import type { Danmaku } from '../api/contracts/interaction.ts';

export interface Waiting {
  item: Danmaku;
  at: number;
}

/** One line of waiting comments: an array with a moving head, compacted now and then. */
export class WaitingLine {
  private items: Danmaku[] = [];
  private head = 0;
  get length() {
    return this.items.length - this.head;
  }
  first(): Danmaku | undefined {
    return this.items[this.head];
  }
  push(item: Danmaku) {
    this.items.push(item);
  }
  shift(): Danmaku | undefined {
    const item = this.items[this.head++];
    if (this.head > 64 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
  /** Rare paths (a refused send, a confirmed id). */
  rewrite(change: (item: Danmaku) => Danmaku | null) {
    this.items = this.items
      .slice(this.head)
      .map(change)
      .filter((d): d is Danmaku => d !== null);
    this.head = 0;
  }
}

const before = (a: Waiting, b: Waiting) =>
  a.at < b.at ||
  (a.at === b.at && (a.item.time < b.item.time || (a.item.time === b.item.time && a.item.id < b.item.id)));

export class WaitQueue {
  private heap: Waiting[] = [];

  get size() {
    return this.heap.length;
  }

  clear() {
    this.heap = [];
  }

  push(item: Danmaku, at: number) {
    const heap = this.heap;
    heap.push({ item, at });
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i], heap[parent])) break;
      [heap[i], heap[parent]] = [heap[parent], heap[i]];
      i = parent;
    }
  }

  /** The next to wake when its time is at most `time`, taken off the queue; else undefined. */
  popDue(time: number): Waiting | undefined {
    const heap = this.heap;
    if (!heap.length || heap[0].at > time) return undefined;
    const top = heap[0];
    const last = heap.pop()!;
    if (heap.length) {
      heap[0] = last;
      this.siftDown(0);
    }
    return top;
  }

  /** Rare paths (a refused send, a confirmed id): rewrites entries, then restores the order. */
  rewrite(change: (entry: Waiting) => Waiting | null) {
    this.heap = this.heap.map(change).filter((e): e is Waiting => e !== null);
    for (let i = (this.heap.length >> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  private siftDown(i: number) {
    const heap = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && before(heap[l], heap[m])) m = l;
      if (r < heap.length && before(heap[r], heap[m])) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m], heap[i]];
      i = m;
    }
  }
}
