import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { takeBuildLock } from './build-lock';

describe('the demo template build lock', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'build-lock-'));
    file = path.join(dir, 'template.tar.gz.lock');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is held by one caller at a time, with its pid, until released', () => {
    const release = takeBuildLock(file);
    expect(release).not.toBeNull();
    expect(readFileSync(file, 'utf8')).toBe(String(process.pid));
    expect(takeBuildLock(file)).toBeNull();
    release?.();
    expect(existsSync(file)).toBe(false);
    const again = takeBuildLock(file);
    expect(again).not.toBeNull();
    again?.();
  });

  it('takes over a lock left by a process that has died', () => {
    // A pid that no longer runs: a process that has exited.
    const dead = spawnSync(process.execPath, [
      '-e',
      'process.stdout.write(String(process.pid))',
    ]).stdout.toString();
    writeFileSync(file, dead);
    const release = takeBuildLock(file);
    expect(release).not.toBeNull();
    expect(readFileSync(file, 'utf8')).toBe(String(process.pid));
    release?.();
  });

  it('waits on a lock its creator has not written yet, then takes it over once it is stale', () => {
    writeFileSync(file, '');
    expect(takeBuildLock(file)).toBeNull();
    const old = new Date(Date.now() - 10_000);
    utimesSync(file, old, old);
    const release = takeBuildLock(file);
    expect(release).not.toBeNull();
    release?.();
  });
});
