/**
 * A small pool of workers (SPEC §9: palette extraction uses at most 5). Workers are started
 * only when there is work and none is free; tasks wait in order. Each worker answers one task
 * at a time with `{ id, result }` or `{ id, error }`.
 */
export interface PoolWorker {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  addEventListener(type: 'error', listener: (event: Event) => void): void;
  terminate(): void;
}

interface Task<T> {
  id: number;
  payload: unknown;
  resolve: (value: T) => void;
  reject: (error: Error) => void;
}

export class WorkerPool<T> {
  private readonly idle: PoolWorker[] = [];
  private readonly busy = new Map<PoolWorker, Task<T>>();
  private readonly queue: Task<T>[] = [];
  private nextId = 1;

  private readonly createWorker: () => PoolWorker;
  readonly maxWorkers: number;

  constructor(createWorker: () => PoolWorker, maxWorkers: number) {
    this.createWorker = createWorker;
    this.maxWorkers = maxWorkers;
    if (!(maxWorkers >= 1)) throw new Error('a pool needs at least one worker');
  }

  get size(): number {
    return this.idle.length + this.busy.size;
  }

  run(payload: unknown): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, payload, resolve, reject });
      this.dispatch();
    });
  }

  terminate(): void {
    for (const worker of [...this.idle, ...this.busy.keys()]) worker.terminate();
    for (const task of [...this.busy.values(), ...this.queue]) task.reject(new Error('worker pool terminated'));
    this.idle.length = 0;
    this.busy.clear();
    this.queue.length = 0;
  }

  private dispatch(): void {
    while (this.queue.length) {
      const worker = this.idle.pop() ?? (this.size < this.maxWorkers ? this.start() : null);
      if (!worker) return;
      const task = this.queue.shift()!;
      this.busy.set(worker, task);
      worker.postMessage({ id: task.id, payload: task.payload });
    }
  }

  private start(): PoolWorker {
    const worker = this.createWorker();
    worker.addEventListener('message', (event: MessageEvent) => {
      const task = this.busy.get(worker);
      const data = event.data as { id: number; result?: T; error?: string };
      if (!task || data.id !== task.id) return;
      this.busy.delete(worker);
      this.idle.push(worker);
      if (data.error !== undefined) task.reject(new Error(data.error));
      else task.resolve(data.result as T);
      this.dispatch();
    });
    worker.addEventListener('error', () => {
      // A worker that crashed is dropped; its task fails, the queue goes on with a new one.
      const task = this.busy.get(worker);
      this.busy.delete(worker);
      worker.terminate();
      task?.reject(new Error('worker failed'));
      this.dispatch();
    });
    return worker;
  }
}
