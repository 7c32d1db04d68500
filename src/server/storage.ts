import { randomBytes } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from './config';
import type { AppServices } from './context';

/**
 * Where uploaded files live. The database keeps their metadata and key; the bytes live here, so
 * the app stays stateless: local disk by default, an S3-compatible store later (same interface).
 */
export interface FileStorage {
  /** Stores the bytes under the key, replacing what was there. */
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** The bytes, or null when nothing is stored under the key. */
  get(key: string): Promise<Buffer | null>;
  /** Removes the file; a missing file is not an error. */
  delete(key: string): Promise<void>;
  /** Removes what a crash left half-written; called once at start. Returns how many it removed. */
  removeLeftovers(): Promise<number>;
}

/** Keys are our own: lower-case segments of letters, digits, '-' and '_', separated by '/'. */
/** A file being written is named `<file>.<random>.tmp` until it is complete (`put`). */
const TEMPORARY_SUFFIX = '.tmp';

const KEY_PATTERN = /^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9_-]*)*$/;

export function assertStorageKey(key: string): void {
  if (key.length > 300 || !KEY_PATTERN.test(key)) throw new Error(`Invalid storage key: ${key}`);
}

/** Files under one directory (DATA_DIR/uploads); no key can name a path outside it. */
export class LocalFileStorage implements FileStorage {
  private readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  private pathOf(key: string): string {
    assertStorageKey(key);
    const file = path.resolve(this.root, ...key.split('/'));
    // The pattern already forbids '..' and absolute keys; this is the belt to those braces.
    if (!file.startsWith(this.root + path.sep)) throw new Error(`Storage key escapes the store: ${key}`);
    return file;
  }

  async put(key: string, data: Buffer): Promise<void> {
    const file = this.pathOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    // Write then rename: a reader never sees half a file, a crash never leaves one under the key.
    const temporary = `${file}.${randomBytes(6).toString('hex')}${TEMPORARY_SUFFIX}`;
    await writeFile(temporary, data, { mode: 0o600 });
    await rename(temporary, file);
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  /**
   * A process killed between `writeFile` and `rename` leaves its temporary file behind (never a
   * file under a key). At start no write of this instance is under way: the directory is the
   * instance's own (DATA_DIR), so every temporary file in it is a leftover.
   */
  async removeLeftovers(): Promise<number> {
    let entries: Dirent[];
    try {
      entries = await readdir(this.root, { recursive: true, withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
    const leftovers = entries.filter((entry) => entry.isFile() && entry.name.endsWith(TEMPORARY_SUFFIX));
    await Promise.all(leftovers.map((entry) => rm(path.join(entry.parentPath, entry.name), { force: true })));
    return leftovers.length;
  }
}

// Keyed by the instance's config: a transaction's context is a copy of the app's (TxContext).
const stores = new WeakMap<Config, FileStorage>();

/** The app instance's file store: DATA_DIR/uploads. */
export function fileStorage(ctx: AppServices): FileStorage {
  let store = stores.get(ctx.config);
  if (!store) {
    store = new LocalFileStorage(path.join(ctx.config.DATA_DIR, 'uploads'));
    stores.set(ctx.config, store);
  }
  return store;
}
