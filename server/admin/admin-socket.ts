/**
 * The admin socket: while the server holds the embedded database (one process only), `npm run
 * cli` asks the server to run its database commands instead of opening the database itself. A
 * Unix socket in DATA_DIR, readable and writable by the server's own user alone (mode 0600), so
 * only that account (and root) can talk to it; nothing listens on the network.
 *
 * One request per connection: a JSON line ({ command, ... } of commands.ts), answered by one JSON
 * line, { ok: true, lines } or { ok: false, code, message, issues }.
 */
import { createServer, connect, type Server } from 'node:net';
import { chmod, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Repositories } from '../repositories/index.ts';
import type { Logger } from '../logger.ts';
import { DomainError } from '../domain/errors.ts';
import { parseAdminRequest, runAdminCommand, type AdminRequest } from './commands.ts';
import { translatorFor } from '../../src/lib/i18n/catalogs.ts';
import { ERROR_MESSAGE_KEY } from '../../src/lib/api/errors.ts';

export const ADMIN_SOCKET_NAME = 'admin.sock';
/** The longest request line: a user:create with its longest fields fits many times over. */
const MAX_REQUEST_BYTES = 16 * 1024;

export type AdminAnswer =
  | { ok: true; lines: string[] }
  | { ok: false; code: string; message: string; issues?: Array<{ path: string; message: string }> };

export const adminSocketPath = (dataDir: string) => join(dataDir, ADMIN_SOCKET_NAME);

/** What a failed command says, in English as the CLI prints it. */
export function answerForError(error: unknown): AdminAnswer {
  if (error instanceof DomainError) {
    return {
      ok: false,
      code: error.code,
      message: translatorFor('en').t(ERROR_MESSAGE_KEY[error.code]),
      issues: error.issues,
    };
  }
  return { ok: false, code: 'INTERNAL', message: error instanceof Error ? error.message : String(error) };
}

/**
 * Listens on DATA_DIR/admin.sock. The server holds DATA_DIR's lock, so a socket file already
 * there is a leftover of a process that is gone, and is replaced. Answers a closer.
 */
export async function startAdminSocket(options: {
  dataDir: string;
  repositories: Pick<Repositories, 'users' | 'invitations'>;
  logger: Logger;
}): Promise<() => Promise<void>> {
  const path = adminSocketPath(options.dataDir);
  await rm(path, { force: true });
  const server: Server = createServer((socket) => {
    let buffered = '';
    socket.setEncoding('utf8');
    socket.setTimeout(30_000, () => socket.destroy());
    const reply = (answer: AdminAnswer) => socket.end(`${JSON.stringify(answer)}\n`);
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      if (Buffer.byteLength(buffered) > MAX_REQUEST_BYTES)
        return reply({ ok: false, code: 'PAYLOAD_TOO_LARGE', message: 'The request is too long.' });
      const end = buffered.indexOf('\n');
      if (end < 0) return;
      socket.removeAllListeners('data');
      let request: AdminRequest | null = null;
      try {
        request = parseAdminRequest(JSON.parse(buffered.slice(0, end)));
      } catch {
        /* answered below */
      }
      if (!request) return reply({ ok: false, code: 'VALIDATION_FAILED', message: 'Not a command this server knows.' });
      const { command } = request;
      runAdminCommand(options.repositories, request).then(
        (lines) => {
          options.logger.info('admin command over the socket', { command });
          reply({ ok: true, lines });
        },
        (error: unknown) => {
          if (!(error instanceof DomainError)) options.logger.error('admin command failed', { command, err: error });
          reply(answerForError(error));
        },
      );
    });
    socket.on('error', () => socket.destroy());
  });
  // Created with no access for others from the first moment, then made exactly 0600.
  const umask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => resolve());
    });
  } finally {
    process.umask(umask);
  }
  await chmod(path, 0o600);
  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(path, { force: true });
  };
}

/**
 * The CLI's side: sends one request to the server listening in DATA_DIR. Answers null when no
 * server listens there (no socket, or one left by a process that is gone).
 */
export function askRunningServer(dataDir: string, request: AdminRequest): Promise<AdminAnswer | null> {
  return new Promise((resolve, reject) => {
    const socket = connect(adminSocketPath(dataDir));
    let received = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('end', () => {
      try {
        resolve(JSON.parse(received) as AdminAnswer);
      } catch {
        reject(new Error('The running server gave no answer.'));
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') resolve(null);
      else reject(error);
    });
  });
}
