import { type TarEntry, tarOf } from './tar';

/** Where PGlite keeps its data directory in its module's file system. */
export const PGLITE_DATA_DIR = '/pglite/data';

/** What `closeAndDump` reads of Emscripten's file system. */
export interface EmscriptenFs {
  readdir(path: string): string[];
  stat(path: string): { mode: number; mtime: Date };
  isDir(mode: number): boolean;
  readFile(path: string, options: { encoding: 'binary' }): Uint8Array;
}

/** Every directory and file under `root`, parents first, named relative to it. */
function directoryEntries(fs: EmscriptenFs, root: string): TarEntry[] {
  const entries: TarEntry[] = [];
  const walk = (relative: string) => {
    for (const name of fs.readdir(`${root}/${relative}`).sort()) {
      if (name === '.' || name === '..') continue;
      const entryName = relative ? `${relative}/${name}` : name;
      const full = `${root}/${entryName}`;
      const { mode, mtime } = fs.stat(full);
      if (fs.isDir(mode)) {
        entries.push({ name: entryName, mode, mtime: mtime.getTime() });
        walk(entryName);
      } else {
        entries.push({
          name: entryName,
          mode,
          mtime: mtime.getTime(),
          data: fs.readFile(full, { encoding: 'binary' }),
        });
      }
    }
  };
  walk('');
  return entries;
}

/** The data directory under `root` as a plain tar, as PGlite's `loadDataDir` reads one. */
export function pgliteDataDirTar(fs: EmscriptenFs, root: string): Buffer {
  return tarOf(directoryEntries(fs, root));
}
