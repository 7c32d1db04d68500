import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileStorage } from '../../src/server/storage';
import { startTestApp } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';

describe.each(DATABASE_KINDS)('upload files a crash left half-written on %s', (kind) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'devicefin-leftovers-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('are removed at start; stored files and other names stay', async () => {
    const uploads = path.join(dataDir, 'uploads');
    const folder = path.join(uploads, 'customers', 'c1');
    mkdirSync(folder, { recursive: true });
    // What `put` leaves when the process dies between writing and renaming.
    const leftovers = [
      path.join(folder, 'id-front.a1b2c3d4e5f6.tmp'),
      path.join(uploads, 'x.0123456789ab.tmp'),
    ];
    const kept = [path.join(folder, 'id-front'), path.join(folder, 'notes.tmp.txt')];
    for (const file of [...leftovers, ...kept]) writeFileSync(file, 'bytes');

    const t = await startTestApp(kind, { env: { DATA_DIR: dataDir } });
    try {
      for (const file of leftovers) expect(existsSync(file), file).toBe(false);
      for (const file of kept) expect(existsSync(file), file).toBe(true);
      expect((await fileStorage(t.app.ctx).get('customers/c1/id-front'))?.toString()).toBe('bytes');
    } finally {
      await t.close();
    }
  });
});
