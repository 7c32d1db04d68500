import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { testTemplatePath } from '../support/template';

/** A ustar archive's entries by name (header: name at 0, size in octal at 124; data padded to 512). */
function tarEntries(tar: Buffer): Map<string, Buffer> {
  const entries = new Map<string, Buffer>();
  for (let at = 0; at + 512 <= tar.length && tar[at] !== 0; ) {
    const field = (from: number, length: number) =>
      tar
        .subarray(at + from, at + from + length)
        .toString('latin1')
        .replace(/\0.*$/s, '');
    const size = Number.parseInt(field(124, 12).trim() || '0', 8);
    entries.set(field(0, 100).replace(/^\//, ''), tar.subarray(at + 512, at + 512 + size));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return entries;
}

describe('the PGlite template a test database starts from', () => {
  const entries = tarEntries(gunzipSync(readFileSync(testTemplatePath())));

  it('was shut down cleanly, so a start skips crash recovery', () => {
    const control = entries.get('global/pg_control');
    // ControlFileData: system identifier (8 bytes), version (4), catalogue version (4), then the
    // state, DB_SHUTDOWNED = 1 (DB_IN_PRODUCTION = 6 in a live dump).
    expect(control?.readUInt32LE(16)).toBe(1);
  });

  it('keeps only the write-ahead log segment of its shutdown checkpoint', () => {
    const segments = [...entries.keys()].filter((name) => /^pg_wal\/[0-9A-F]{24}$/.test(name));
    expect(segments).toHaveLength(1);
  });
});
