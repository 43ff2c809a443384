/**
 * A Server-Sent Events client for tests and benches, over node:http so a test can stop reading
 * (a slow viewer) and send Last-Event-ID as a browser's EventSource does when it reconnects.
 * It parses events as the EventSource specification says (id, event, data, comments, retry).
 */
import { request, type Agent, type IncomingMessage } from 'node:http';

export interface SseEvent {
  /** The event's id, or the last one given before it (EventSource's lastEventId). */
  id: string;
  event: string;
  data: string;
  /** When it was parsed (performance.now()). */
  at: number;
}

export class SseClient {
  readonly events: SseEvent[] = [];
  status = 0;
  contentType = '';
  /** Comment lines seen (heartbeats). */
  comments = 0;
  lastEventId = '';
  /** Resolves when the server ends the stream or the connection breaks. */
  readonly ended: Promise<void>;
  onEvent?: (event: SseEvent) => void;
  private response?: IncomingMessage;
  private buffer = '';
  private waiters: Array<{ check: () => boolean; resolve: () => void }> = [];
  private finished = false;
  private endedResolve!: () => void;
  private readonly abort = new AbortController();
  body = '';

  private constructor() {
    this.ended = new Promise((resolve) => (this.endedResolve = resolve));
  }

  /** Opens the stream; resolves once the answer's headers are in (an error answer's body is read whole). */
  static open(
    url: string,
    options: { headers?: Record<string, string>; lastEventId?: string; agent?: Agent } = {},
  ): Promise<SseClient> {
    const client = new SseClient();
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        {
          agent: options.agent,
          signal: client.abort.signal,
          headers: {
            Accept: 'text/event-stream',
            ...options.headers,
            ...(options.lastEventId ? { 'Last-Event-ID': options.lastEventId } : {}),
          },
        },
        (res) => {
          client.response = res;
          client.status = res.statusCode ?? 0;
          client.contentType = String(res.headers['content-type'] ?? '');
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => client.feed(chunk));
          const finish = () => client.finish();
          res.on('end', finish);
          res.on('close', finish);
          res.on('error', finish);
          if (client.status !== 200) res.on('end', () => resolve(client));
          else resolve(client);
        },
      );
      req.on('error', (error) => {
        if (client.response) return client.finish();
        reject(error);
      });
      req.end();
    });
  }

  get data(): unknown[] {
    return this.events.filter((e) => e.event === 'message').map((e) => JSON.parse(e.data));
  }

  /** The last `watching` count received, or null. */
  get watching(): number | null {
    const last = this.events.findLast((e) => e.event === 'watching');
    return last ? (JSON.parse(last.data) as { watching: number }).watching : null;
  }

  /** Resolves once `check` holds (checked after every event, comment and the end). */
  until(check: (client: SseClient) => boolean): Promise<void> {
    if (check(this)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ check: () => check(this), resolve }));
  }

  /** Stops reading: the server's writes pile up in the connection (a slow viewer). */
  pause() {
    this.response?.pause();
  }

  resume() {
    this.response?.resume();
  }

  close() {
    this.abort.abort();
    this.finish();
  }

  get isEnded() {
    return this.finished;
  }

  private feed(chunk: string) {
    if (this.status !== 200) {
      this.body += chunk;
      return;
    }
    this.buffer += chunk.replace(/\r\n?/g, '\n');
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      this.parse(block);
    }
    this.wake();
  }

  private parse(block: string) {
    let event = 'message';
    const data: string[] = [];
    let hasData = false;
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) {
        this.comments += 1;
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') this.lastEventId = value;
      else if (field === 'event') event = value;
      else if (field === 'data') {
        data.push(value);
        hasData = true;
      }
    }
    if (!hasData) return;
    const parsed = { id: this.lastEventId, event, data: data.join('\n'), at: performance.now() };
    this.events.push(parsed);
    this.onEvent?.(parsed);
  }

  private wake() {
    this.waiters = this.waiters.filter((w) => {
      if (!w.check()) return true;
      w.resolve();
      return false;
    });
  }

  private finish() {
    if (this.finished) return;
    this.finished = true;
    this.endedResolve();
    this.wake();
  }
}
