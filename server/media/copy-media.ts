/**
 * Moves an existing media folder (MEDIA_DIR) into a media store (the bucket), for the switch to
 * MEDIA_STORE=s3. Idempotent and resumable: a file already in the store with the same size is
 * skipped, so a run that was stopped goes on where it stopped and a second run copies nothing.
 * Playlists go after every other file, so a store caught half-way never has a playlist that
 * names a segment it lacks. The folder is left as it is (remove it once the site runs on S3).
 */
import { readFile } from 'node:fs/promises';
import { localFilesUnder, safeKey, type MediaStore } from './media-store.ts';

export interface CopyProgress {
  done: number;
  total: number;
  bytesDone: number;
  bytesTotal: number;
}
export interface CopyReport {
  files: number;
  copied: number;
  skipped: number;
  bytesCopied: number;
  refused: string[];
}

export async function copyMediaFolder(options: {
  folder: string;
  store: MediaStore;
  dryRun?: boolean;
  onProgress?: (progress: CopyProgress) => void;
}): Promise<CopyReport> {
  const { folder, store } = options;
  const stored = new Map<string, number>();
  for await (const object of store.list('')) stored.set(object.key, object.size);
  const refused: string[] = [];
  const toCopy: { key: string; path: string; size: number }[] = [];
  let files = 0;
  for await (const file of localFilesUnder(folder)) {
    // Scratch folders and temporary files of the folder store are not media.
    if (file.key.startsWith('.scratch/') || file.key.endsWith('.tmp')) continue;
    files++;
    if (!safeKey(file.key)) refused.push(file.key);
    else if (stored.get(file.key) !== file.size) toCopy.push(file);
  }
  toCopy.sort((a, b) => Number(a.key.endsWith('.m3u8')) - Number(b.key.endsWith('.m3u8')));
  const bytesTotal = toCopy.reduce((sum, f) => sum + f.size, 0);
  const report: CopyReport = {
    files,
    copied: 0,
    skipped: files - toCopy.length - refused.length,
    bytesCopied: 0,
    refused,
  };
  if (options.dryRun) return { ...report, copied: toCopy.length, bytesCopied: bytesTotal };
  options.onProgress?.({ done: 0, total: toCopy.length, bytesDone: 0, bytesTotal });
  for (const file of toCopy) {
    await store.put(file.key, await readFile(file.path));
    report.copied++;
    report.bytesCopied += file.size;
    options.onProgress?.({ done: report.copied, total: toCopy.length, bytesDone: report.bytesCopied, bytesTotal });
  }
  return report;
}

/** A progress bar on a terminal (one line redrawn), a line per tenth elsewhere (logs). */
export function progressPrinter(stream: NodeJS.WriteStream) {
  let lastTenth = -1;
  return ({ done, total, bytesDone, bytesTotal }: CopyProgress) => {
    const share = total ? done / total : 1;
    const text = `${done}/${total} files, ${(bytesDone / 1048576).toFixed(1)}/${(bytesTotal / 1048576).toFixed(1)} MiB`;
    if (stream.isTTY) {
      const width = 30;
      const filled = Math.round(share * width);
      stream.write(
        `\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${Math.floor(share * 100)}% ${text}${done === total ? '\n' : ''}`,
      );
    } else if (Math.floor(share * 10) > lastTenth) {
      lastTenth = Math.floor(share * 10);
      stream.write(`${Math.floor(share * 100)}% ${text}\n`);
    }
  };
}
