/**
 * The Node flags every server process runs with (docs/decisions/0042), said once here for the
 * processes the tests and benches start, and repeated where a command line cannot import them:
 * package.json's `start` and `serve`, deploy/Dockerfile and scripts/e2e-server.sh
 * (tests/unit/node-flags.test.ts holds them to this list).
 *
 * `--max-semi-space-size=8`: on a machine with memory to spare V8 lets the young generation grow
 * to 64 MB a half, and the server's scavenges then stopped a request for 16-27 ms each (15-20 MB
 * of young objects copied), one uncached danmaku segment in thirty; capped at 8 MB a half they
 * come more often and stop for a few milliseconds.
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=8'] as const;

/** The arguments of `node` that start a server process: the flags, then the entry point. */
export const serverArguments = (entryPoint = 'server/main.ts'): string[] => [...SERVER_NODE_FLAGS, entryPoint];

/** Whether this process was started with the flags (on its command line or in NODE_OPTIONS). */
export const startedWithServerFlags = (execArgv = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? '') =>
  SERVER_NODE_FLAGS.every((flag) => execArgv.includes(flag) || nodeOptions.split(/\s+/).includes(flag));
