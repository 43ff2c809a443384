/**
 * Rewrites relative imports three or more levels deep (`../../../lib/x.ts`) into the package's
 * import aliases (package.json "imports": `#lib/x.ts`, `#server/x.ts`), so a file reads the same
 * wherever it sits. Idempotent: run it again after a merge brings new deep paths.
 * Usage: node scripts/codemod-aliases.ts [--check]   (--check: list what it would change, exit 1 if any)
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const ROOT = process.cwd();
const ALIASES = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).imports as Record<string, string>;
const FOLDERS = ['src', 'server', 'scripts', 'tests', 'bench'];
const EXTENSIONS = /\.(ts|tsx|mts|mjs|astro)$/;
// `from '…'`, `import '…'`, `import('…')`: every form an import specifier takes in this tree.
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])((?:\.\.\/){3,}[^'"]*)\2/g;

/** `#lib/*` → `./src/lib/*` becomes ['#lib/', absolute src/lib/]: the longest folder first. */
const targets = Object.entries(ALIASES)
  .filter(([alias, target]) => alias.endsWith('/*') && target.endsWith('/*'))
  .map(([alias, target]) => [alias.slice(0, -1), resolve(ROOT, target.slice(0, -1)) + sep] as const)
  .sort((a, b) => b[1].length - a[1].length);

function files(folder: string, out: string[] = []): string[] {
  for (const name of readdirSync(folder)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(folder, name);
    if (statSync(path).isDirectory()) files(path, out);
    else if (EXTENSIONS.test(name)) out.push(path);
  }
  return out;
}

const check = process.argv.includes('--check');
let changedFiles = 0;
let changedImports = 0;
for (const file of FOLDERS.flatMap((folder) => files(join(ROOT, folder)))) {
  const text = readFileSync(file, 'utf8');
  const next = text.replace(SPECIFIER, (whole, before: string, quote: string, specifier: string) => {
    const absolute = resolve(dirname(file), specifier);
    const hit = targets.find(([, folder]) => absolute.startsWith(folder));
    if (!hit) return whole; // a folder without an alias (components, islands…): left relative
    changedImports++;
    return `${before}${quote}${hit[0]}${absolute.slice(hit[1].length).split(sep).join('/')}${quote}`;
  });
  if (next === text) continue;
  changedFiles++;
  if (check) console.log(relative(ROOT, file));
  else writeFileSync(file, next);
}
if (!check) console.log(`rewrote ${changedImports} imports in ${changedFiles} files`);
else if (changedImports) {
  console.error(
    `${changedImports} imports in ${changedFiles} files (above) go three or more levels up where an alias reaches: run node scripts/codemod-aliases.ts`,
  );
  process.exit(1);
}
