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
  if (isHeld(file) !== false) return null; // held, or released meanwhile: look again
  rmSync(file, { force: true });
  return takeBuildLock(file);
}

/**
 * Whether a live process holds the lock; null when the file is gone. A lock whose creator has
 * not written its pid yet counts as held for a few seconds, then as abandoned.
 */
function isHeld(file: string): boolean | null {
  try {
    const pid = Number(readFileSync(file, 'utf8'));
    return pid ? isAlive(pid) : Date.now() - statSync(file).mtimeMs < 5_000;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Whether process `pid` runs (one of another user counts: it exists). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
