import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tarOf, withoutEntries } from './tar';

const mtime = Date.UTC(2026, 0, 2, 3, 4, 5);
const entries = [
  { name: 'base', mode: 0o40750, mtime },
  { name: 'base/5', mode: 0o40750, mtime },
  { name: 'base/5/1249', mode: 0o100600, mtime, data: new Uint8Array(1000).fill(7) },
  { name: 'PG_VERSION', mode: 0o100600, mtime, data: new TextEncoder().encode('18\n') },
  { name: 'empty', mode: 0o100600, mtime, data: new Uint8Array(0) },
];

describe('tarOf', () => {
  it('writes a ustar archive the system tar reads back, byte for byte', () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'tar-test-'));
    try {
      const file = path.join(directory, 'dump.tar');
      writeFileSync(file, tarOf(entries));
      const listing = execFileSync('tar', ['-tvf', file], { encoding: 'utf8' });
      expect(
        listing
          .split('\n')
          .filter(Boolean)
          .map((line) => line.split(/\s+/).at(-1)),
      ).toEqual(['base/', 'base/5/', 'base/5/1249', 'PG_VERSION', 'empty']);
      execFileSync('tar', ['-xf', file, '-C', directory]);
      expect(readFileSync(path.join(directory, 'base/5/1249'))).toEqual(Buffer.alloc(1000, 7));
      expect(readFileSync(path.join(directory, 'PG_VERSION'), 'utf8')).toBe('18\n');
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('pads each file to 512 bytes, so withoutEntries walks and drops by name', () => {
    const tar = tarOf(entries);
    expect(tar.length % 512).toBe(0);
    const without = withoutEntries(tar, (name) => name === 'base/5/1249');
    // Its header and two blocks of data gone; everything else unchanged.
    expect(tar.length - without.length).toBe(512 * 3);
    expect(withoutEntries(without, () => false)).toEqual(without);
  });

  it('refuses a name longer than a ustar header holds', () => {
    expect(() => tarOf([{ name: 'x'.repeat(101), mode: 0o100600, mtime, data: new Uint8Array(1) }])).toThrow(
      /longer than 100 bytes/,
    );
  });
});
