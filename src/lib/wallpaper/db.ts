import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import {
  canOperate,
  nextDisplayIndex,
  shiftsAfterDelete,
  shiftsForMove,
  type Placed,
  type WallpaperRecord,
} from './list.ts';

/** SPEC §3: the local browser database of background images. */
export const IMAGES_DB = 'ImagesDB';
export const IMAGES_DB_VERSION = 1;
export const IMAGES_STORE = 'backgroundImages';

interface ImagesSchema extends DBSchema {
  backgroundImages: { key: number; value: WallpaperRecord };
}

/** The browser refused to store more (the origin's quota is full): nothing was written. */
export class WallpaperQuotaError extends Error {
  constructor() {
    super('storage quota exceeded');
    this.name = 'WallpaperQuotaError';
  }
}

export function isQuotaError(error: unknown): boolean {
  return error instanceof DOMException && (error.name === 'QuotaExceededError' || error.code === 22);
}

const NOT_OPEN = 'the database has not been opened';

export interface StoredWallpaper extends Placed {
  record: WallpaperRecord;
}

/**
 * The backgroundImages store. Every change is one transaction (an image and the shifts it
 * causes are written together or not at all); every call does nothing when the database is
 * closed or the key is negative (SPEC §5).
 */
export class WallpaperDb {
  private open = true;

  private readonly db: IDBPDatabase<ImagesSchema>;

  private constructor(db: IDBPDatabase<ImagesSchema>) {
    this.db = db;
  }

  static async open(): Promise<WallpaperDb> {
    let store: WallpaperDb | null = null;
    const db = await openDB<ImagesSchema>(IMAGES_DB, IMAGES_DB_VERSION, {
      upgrade(database) {
        database.createObjectStore(IMAGES_STORE, { autoIncrement: true });
      },
      // Another tab upgrading, or the browser clearing site data: stop using this connection.
      blocking() {
        store?.close();
      },
      terminated() {
        if (store) store.open = false;
      },
    });
    store = new WallpaperDb(db);
    return store;
  }

  get isOpen(): boolean {
    return this.open;
  }

  close(): void {
    if (!this.open) return;
    this.open = false;
    this.db.close();
  }

  async list(): Promise<StoredWallpaper[]> {
    if (!this.open) {
      console.error(NOT_OPEN);
      return [];
    }
    const tx = this.db.transaction(IMAGES_STORE);
    const [keys, records] = await Promise.all([tx.store.getAllKeys(), tx.store.getAll()]);
    await tx.done;
    return keys.map((key, i) => ({ key, displayIndex: records[i].displayIndex, record: records[i] }));
  }

  async get(key: number): Promise<WallpaperRecord | undefined> {
    if (!canOperate(this.open, key)) return undefined;
    return this.db.get(IMAGES_STORE, key);
  }

  /** Adds an image at the end; returns its key. A full quota throws WallpaperQuotaError with nothing written. */
  async add(image: Omit<WallpaperRecord, 'displayIndex'>): Promise<number | null> {
    if (!this.open) {
      console.error(NOT_OPEN);
      return null;
    }
    const tx = this.db.transaction(IMAGES_STORE, 'readwrite');
    try {
      const placed = await this.placed(tx.store);
      const key = await tx.store.add({ ...image, displayIndex: nextDisplayIndex(placed) });
      await tx.done;
      return key;
    } catch (error) {
      // Whatever failed, the transaction is rolled back as a whole.
      try {
        tx.abort();
      } catch {
        /* already finished */
      }
      await tx.done.catch(() => undefined);
      if (isQuotaError(error) || isQuotaError(tx.error)) throw new WallpaperQuotaError();
      throw error;
    }
  }

  /** Deletes an image and moves every later one up by one. False when nothing was done. */
  async remove(key: number): Promise<boolean> {
    if (!canOperate(this.open, key)) return false;
    const tx = this.db.transaction(IMAGES_STORE, 'readwrite');
    const shifts = shiftsAfterDelete(await this.placed(tx.store), key);
    if (!shifts) {
      await tx.done;
      console.error('cannot find the given ID in the store', key);
      return false;
    }
    await tx.store.delete(key);
    await this.writeShifts(tx.store, shifts);
    await tx.done;
    return true;
  }

  /** Moves an image to `target` (clamped to the list), shifting those in between. False when nothing was done. */
  async move(key: number, target: number): Promise<boolean> {
    if (!canOperate(this.open, key)) return false;
    const tx = this.db.transaction(IMAGES_STORE, 'readwrite');
    const shifts = shiftsForMove(await this.placed(tx.store), key, target);
    if (!shifts) {
      await tx.done;
      console.error('cannot find the given ID in the store', key);
      return false;
    }
    await this.writeShifts(tx.store, shifts);
    await tx.done;
    return true;
  }

  /** Records the dominant colour once the palette worker has found it. */
  async setColour(key: number, color: string): Promise<boolean> {
    if (!canOperate(this.open, key)) return false;
    const tx = this.db.transaction(IMAGES_STORE, 'readwrite');
    const record = await tx.store.get(key);
    if (record) await tx.store.put({ ...record, color }, key);
    await tx.done;
    return !!record;
  }

  private async placed(store: {
    getAllKeys(): Promise<number[]>;
    getAll(): Promise<WallpaperRecord[]>;
  }): Promise<Placed[]> {
    const [keys, records] = await Promise.all([store.getAllKeys(), store.getAll()]);
    return keys.map((key, i) => ({ key, displayIndex: records[i].displayIndex }));
  }

  private async writeShifts(
    store: {
      get(key: number): Promise<WallpaperRecord | undefined>;
      put(value: WallpaperRecord, key: number): Promise<number>;
    },
    shifts: ReadonlyMap<number, number>,
  ): Promise<void> {
    for (const [key, displayIndex] of shifts) {
      const record = await store.get(key);
      if (record) await store.put({ ...record, displayIndex }, key);
    }
  }
}
