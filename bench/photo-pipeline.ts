/**
 * The photo pipeline vs sharp called directly (issue 13: goal <= 1.2x): one 24-megapixel JPEG
 * (6000 × 4000, photo-like: noise over gradients, EXIF with GPS) made into every variant the site
 * serves (320, 640, 1280 and 2560 wide, each AVIF, WebP and JPEG: 12 files) plus the blur
 * placeholder.
 * - pipeline: server/media/photo-pipeline.ts as the render job runs it (header check, one decode,
 *   each variant resized from the decoded pixels, files written);
 * - direct: the same 12 files and placeholder with sharp's plainest calls, each from the source
 *   file (`sharp(file).rotate().resize(w).avif(...)`), the same encoder settings, files written.
 * Rounds alternate (direct, pipeline, ...) so load changes touch both; the ratio is of medians.
 * Usage: node bench/photo-pipeline.ts [rounds=3]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { inspectPhoto, renderPhoto, PHOTO_FORMATS } from '../server/media/photo-pipeline.ts';
import { PHOTO_WIDTHS } from '../src/lib/api/contracts/photo.constants.ts';
import { photoLike } from './photo-fixtures.ts';

const ROUNDS = Number(process.argv[2]) || 3;
const GOAL = 1.2;
const dir = mkdtempSync(join(tmpdir(), 'photo-pipeline-bench-'));
const source = join(dir, 'source.jpg');
const sourceBytes = await sharp(await photoLike(0, 6000))
  .withExif({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '35/1 39/1 2904/100' } })
  .jpeg({ quality: 90 })
  .toBuffer();
writeFileSync(source, sourceBytes);
const meta = await sharp(source).metadata();
console.log(
  `source: ${meta.width}x${meta.height} (${((meta.width! * meta.height!) / 1e6).toFixed(1)} MP), ${(sourceBytes.length / 1e6).toFixed(1)} MB`,
);

/** The same encoders as the pipeline's (kept in step by hand: the bench states them once). */
function encodeDirect(image: Sharp, format: string) {
  if (format === 'avif') return image.avif({ quality: 50, effort: 2 });
  if (format === 'webp') return image.webp({ quality: 78, effort: 3 });
  return image.flatten({ background: '#ffffff' }).jpeg({ quality: 82, mozjpeg: true, progressive: true });
}

async function direct(out: string): Promise<void> {
  for (const width of PHOTO_WIDTHS) {
    for (const format of PHOTO_FORMATS) {
      await encodeDirect(sharp(source).rotate().resize({ width }), format).toFile(join(out, `${width}.${format}`));
    }
  }
  await sharp(source).rotate().resize({ width: 16 }).blur(1.2).webp({ quality: 40 }).toBuffer();
}

async function pipeline(out: string): Promise<void> {
  const inspection = await inspectPhoto(source);
  if (!inspection.ok) throw new Error(inspection.reason);
  await renderPhoto(source, inspection, (width, format, bytes) => writeFile(join(out, `${width}.${format}`), bytes));
}

const times: Record<'direct' | 'pipeline', number[]> = { direct: [], pipeline: [] };
const loads: number[][] = [];
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, run] of [
    ['direct', direct],
    ['pipeline', pipeline],
  ] as const) {
    const out = join(dir, `${name}-${round}`);
    mkdirSync(out);
    loads.push(loadavg());
    const start = performance.now();
    await run(out);
    times[name].push((performance.now() - start) / 1000);
    console.log(`round ${round + 1} ${name}: ${times[name].at(-1)!.toFixed(2)} s (load ${loadavg()[0].toFixed(2)})`);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ratio = median(times.pipeline) / median(times.direct);
const result = {
  when: new Date().toISOString(),
  source: { width: meta.width, height: meta.height, bytes: sourceBytes.length },
  rounds: ROUNDS,
  files: PHOTO_WIDTHS.length * PHOTO_FORMATS.length,
  seconds: times,
  medianSeconds: { direct: median(times.direct), pipeline: median(times.pipeline) },
  ratio: +ratio.toFixed(3),
  goal: GOAL,
  met: ratio <= GOAL,
  loadAverageDuring: loads.map((l) => l.map((x) => +x.toFixed(2))),
};
console.log(JSON.stringify({ ratio: result.ratio, medianSeconds: result.medianSeconds, met: result.met }, null, 2));
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/photo-pipeline.json', `${JSON.stringify(result, null, 2)}\n`);
rmSync(dir, { recursive: true, force: true });
