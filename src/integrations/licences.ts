import { readFileSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';

export interface DependencyLicence {
  name: string;
  version: string;
  licence: string;
}

interface Manifest {
  name?: string;
  version?: string;
  license?: string | { type?: string };
  licenses?: Array<{ type?: string }>;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

function readManifest(dir: string): Manifest | null {
  const file = join(dir, 'package.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Manifest) : null;
}

/** Node's lookup: the nearest node_modules/<name> from `from` upwards. */
function resolvePackageDir(name: string, from: string): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) return null;
  }
}

function licenceOf(manifest: Manifest): string {
  if (typeof manifest.license === 'string') return manifest.license;
  if (manifest.license?.type) return manifest.license.type;
  const list = manifest.licenses?.map((l) => l.type).filter(Boolean);
  return list?.length ? list.join(' OR ') : 'UNKNOWN';
}

/**
 * The licences of everything the site runs on: the production dependencies of package.json and
 * theirs, as installed (read at build, so the About page lists exactly what was built with).
 */
export function dependencyLicences(root = process.cwd()): DependencyLicence[] {
  const seen = new Map<string, DependencyLicence>();
  const rootManifest = readManifest(root);
  const queue: Array<{ name: string; from: string }> = Object.keys(rootManifest?.dependencies ?? {}).map((name) => ({
    name,
    from: root,
  }));
  while (queue.length) {
    const { name, from } = queue.shift()!;
    const dir = resolvePackageDir(name, from);
    if (!dir) continue; // an optional dependency for another platform
    const manifest = readManifest(dir);
    if (!manifest?.version) continue;
    const id = `${name}@${manifest.version}`;
    if (seen.has(id)) continue;
    seen.set(id, { name, version: manifest.version, licence: licenceOf(manifest) });
    for (const dep of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies }))
      queue.push({ name: dep, from: dir });
  }
  return [...seen.values()].sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
}

/** The licence identifiers with how many dependencies use each, most used first. */
export function licenceSummary(list: readonly DependencyLicence[]): Array<{ licence: string; count: number }> {
  const counts = new Map<string, number>();
  for (const { licence } of list) counts.set(licence, (counts.get(licence) ?? 0) + 1);
  return [...counts]
    .map(([licence, count]) => ({ licence, count }))
    .sort((a, b) => b.count - a.count || a.licence.localeCompare(b.licence));
}
