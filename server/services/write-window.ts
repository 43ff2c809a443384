/**
 * Write-behind for hot counters (issue 30 item 5, decisions 0015 and 0023): what many requests
 * would each write to the same row is gathered in memory for a short window and written once.
 * The first change after a quiet spell opens a window; when it closes, everything gathered is
 * written by `write` while the next window gathers. A failed write is merged back to go with the
 * next window, so a database hiccup delays what was gathered instead of losing it. `flush()`
 * writes at once and waits for writes under way (the server's drain calls it before the
 * database closes).
 */
export interface WriteWindow<S> {
  /** The open window's state (opening one): add to it. */
  current(): S;
  /** The states gathered and not yet written (the open one and those being written), oldest first. */
  unwritten(): S[];
  /** Writes what is gathered now and waits for every write under way. */
  flush(): Promise<void>;
}

export function createWriteWindow<S>(options: {
  windowMs: number;
  empty: () => S;
  write: (state: S) => Promise<void>;
  /** Puts a state whose write failed into the open window. */
  merge: (into: S, from: S) => void;
  onError: (error: unknown) => void;
}): WriteWindow<S> {
  let open: S | null = null;
  let timer: NodeJS.Timeout | undefined;
  const writing = new Map<Promise<void>, S>();

  const write = (state: S) => {
    const done: Promise<void> = options
      .write(state)
      .catch((error: unknown) => {
        options.onError(error);
        options.merge(current(), state);
      })
      .finally(() => writing.delete(done));
    writing.set(done, state);
  };
  const close = () => {
    clearTimeout(timer);
    timer = undefined;
    if (open === null) return;
    const state = open;
    open = null;
    write(state);
  };
  function current(): S {
    if (open === null) {
      open = options.empty();
      timer = setTimeout(close, options.windowMs);
      timer.unref();
    }
    return open;
  }
  return {
    current,
    unwritten: () => [...writing.values(), ...(open === null ? [] : [open])],
    async flush() {
      close();
      await Promise.all(writing.keys());
    },
  };
}

/** Counts by id (views of a video, plays of a track) gathered in a write window. */
export interface CountWindow {
  /** Counts one more for `id`. */
  add(id: number): void;
  /** What is counted for `id` and not yet written (the open window and those being written). */
  unwritten(id: number): number;
  flush(): Promise<void>;
}

/** A write window of counts by id, written by `write` (one statement for every id of a window). */
export function createCountWindow(options: {
  windowMs: number;
  write: (counts: ReadonlyMap<number, number>) => Promise<void>;
  onError: (error: unknown) => void;
}): CountWindow {
  const window = createWriteWindow<Map<number, number>>({
    windowMs: options.windowMs,
    empty: () => new Map(),
    write: options.write,
    merge: (into, from) => {
      for (const [id, n] of from) into.set(id, (into.get(id) ?? 0) + n);
    },
    onError: options.onError,
  });
  return {
    add(id) {
      const counts = window.current();
      counts.set(id, (counts.get(id) ?? 0) + 1);
    },
    unwritten: (id) => window.unwritten().reduce((sum, counts) => sum + (counts.get(id) ?? 0), 0),
    flush: () => window.flush(),
  };
}
