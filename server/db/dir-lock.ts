import { open, readFile, unlink } from 'node:fs/promises';

/**
 * The embedded database admits one process at a time: a second opener would corrupt it.
 * The lock file holds the owner's pid; a lock left by a dead process is taken over.
 */
export async function acquireDirectoryLock(lockPath: string): Promise<() => Promise<void>> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(lockPath, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return async () => {
        await unlink(lockPath).catch(() => {});
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number((await readFile(lockPath, 'utf8').catch(() => '')).trim());
      if (owner && owner !== process.pid && isAlive(owner)) {
        throw new Error(
          `The embedded database is in use by process ${owner} (${lockPath}). Stop that process first, or point DATABASE_URL at a PostgreSQL server.`,
        );
      }
      await unlink(lockPath).catch(() => {});
    }
  }
  throw new Error(`Could not lock the embedded database (${lockPath}).`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
