import { describe, expect, it } from 'vitest';
import { tarEntries } from '../../src/db/tar';
import { templateTar } from '../../src/db/template';
import { testTemplatePath } from '../support/template';

describe('the PGlite template a test database starts from', () => {
  const entries = new Map(
    [...tarEntries(templateTar(testTemplatePath()))].map((entry) => [
      entry.name.replace(/^\//, ''),
      entry.data,
    ]),
  );

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
