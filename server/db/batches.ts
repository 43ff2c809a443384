/**
 * Requests that each need the same small statement, sent together as ONE statement
 * (docs/decisions/0040). At a hot item's 1000 likes a second, a statement per request cost the
 * server thread, PostgreSQL and their round trips more CPU than two cores have to spare, while a
 * statement for twenty costs little more than one for one.
 *
 * Per key, one statement runs at a time. A request joins the batch being gathered; the batch leaves
 * at the next turn of the event loop when its key has no statement running, else as soon as the
 * running one returns. Nothing waits on a timer: a lone request goes at once, and the busier the
 * key, the larger its batches (the queue that a stall builds is written in a few statements, not
 * one per request). Batches of a key run in the order they were started, so a request that may
 * not share a batch with an earlier one (`joins` false: the same member's like and unlike) is
 * written after it.
 */

export function batched<Item, Outcome>(options: {
  /** Runs one batch (all of one key) in one statement; the outcomes in the items' order. */
  run: (items: Item[]) => Promise<Outcome[]>;
  /** At most this many items in one statement; more wait for the next. */
  max: number;
  /** Whether `item` may join `batch`, the batch still being gathered (else it starts the next one). */
  joins?: (batch: readonly Item[], item: Item) => boolean;
}): (key: string, item: Item) => Promise<Outcome> {
  type Batch = { items: Item[]; done: ((outcome: Outcome) => void)[]; fail: ((error: unknown) => void)[] };
  const queues = new Map<string, Batch[]>();
  const drain = async (key: string, queue: Batch[]) => {
    for (let batch = queue.shift(); batch; batch = queue.shift()) {
      try {
        const outcomes = await options.run(batch.items);
        batch.done.forEach((done, i) => done(outcomes[i]));
      } catch (error) {
        for (const fail of batch.fail) fail(error);
      }
    }
    queues.delete(key);
  };
  return (key, item) =>
    new Promise<Outcome>((done, fail) => {
      let queue = queues.get(key);
      if (!queue) {
        const started: Batch[] = [];
        queues.set(key, (queue = started));
        setImmediate(() => void drain(key, started));
      }
      let batch = queue.at(-1);
      if (!batch || batch.items.length >= options.max || (options.joins && !options.joins(batch.items, item)))
        queue.push((batch = { items: [], done: [], fail: [] }));
      batch.items.push(item);
      batch.done.push(done);
      batch.fail.push(fail);
    });
}
