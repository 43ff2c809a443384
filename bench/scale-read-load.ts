/**
 * The load generator of bench/scale-read.ts, in its own process: autocannon cycling through the
 * read calls (each connection sends them in turn). Prints autocannon's result as JSON.
 * Usage: node bench/scale-read-load.ts URL SECONDS CONNECTIONS PATH...
 */
import autocannon from 'autocannon';

const [url, seconds, connections, ...paths] = process.argv.slice(2);
const result = await autocannon({
  url,
  duration: Number(seconds),
  connections: Number(connections),
  requests: paths.map((path) => ({ method: 'GET', path })),
});
process.stdout.write(
  JSON.stringify({
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  }),
);
