// autocannon ships no type declarations; this is the part of it the benches use.
declare module 'autocannon' {
  interface Options {
    url: string;
    duration: number;
    connections: number;
    requests?: Array<{ method: string; path: string }>;
  }
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
    total: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    non2xx: number;
    errors: number;
    timeouts: number;
  }
  export default function autocannon(options: Options): Promise<Result>;
}
