import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';

/**
 * The build's lock file, created only if absent and holding the builder's pid; answers its
 * release, or null while a live process holds it. A lock left by a process that died is taken over.
 */
export function takeBuildLock(file: string): (() => void) | null {
  try {
    const fd = openSync(file, 'wx');
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return () => rmSync(file, { force: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const holder = lockHolder(file);
  if (holder === null || (holder && isAlive(holder))) return null; // released meanwhile, or held: look again
  rmSync(file, { force: true });
  return takeBuildLock(file);
}

/**
 * The pid in a lock file; null when the file is gone. A file its creator has not written yet
 * reads as this process (alive) for a few seconds, then as no one's.
 */
function lockHolder(file: string): number | null {
  try {
    const pid = Number(readFileSync(file, 'utf8'));
    if (pid) return pid;
    return Date.now() - statSync(file).mtimeMs < 5_000 ? process.pid : 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
