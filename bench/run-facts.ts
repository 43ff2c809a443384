import { cpus, loadavg, platform, release, totalmem } from 'node:os';

/** Where and when a bench ran, first in every result file: the machine, Node, and the load average at its start and now. */
export function runFacts(loadAtStart: readonly number[]) {
  return {
    machine: {
      os: `${platform()} ${release()}`,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model,
      totalMemoryBytes: totalmem(),
    },
    node: process.version,
    loadAverage: { atStart: loadAtStart, atEnd: loadavg().map((l) => +l.toFixed(2)) },
  };
}
