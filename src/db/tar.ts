/**
 * The entries of a tar archive (ustar, as PGlite's dumps and `tarOf`'s are), in order: each is a
 * 512-byte header (name at 0 with its prefix at 345, size in octal at 124) and its data padded to
 * 512 bytes (`block`, header included); two zero blocks end the archive.
 */
export function* tarEntries(tar: Buffer): Generator<{ name: string; data: Buffer; block: Buffer }> {
  let at = 0;
  while (at + 512 <= tar.length && tar[at] !== 0) {
    const header = tar.subarray(at, at + 512);
    const field = (from: number, length: number) => {
      const raw = header.subarray(from, from + length);
      const end = raw.indexOf(0);
      return raw.subarray(0, end < 0 ? length : end).toString('latin1');
    };
    const prefix = field(345, 155);
    const name = prefix ? `${prefix}/${field(0, 100)}` : field(0, 100);
    const size = Number.parseInt(field(124, 12).trim() || '0', 8);
    const next = at + 512 + Math.ceil(size / 512) * 512;
    yield { name, data: tar.subarray(at + 512, at + 512 + size), block: tar.subarray(at, next) };
    at = next;
  }
}

/** A tar archive without the entries `drop` names. */
export function withoutEntries(tar: Buffer, drop: (name: string) => boolean): Buffer {
  const kept = [...tarEntries(tar)].filter((entry) => !drop(entry.name)).map((entry) => entry.block);
  kept.push(Buffer.alloc(1024));
  return Buffer.concat(kept);
}

/** One entry of `tarOf`: a file with its bytes, or a directory (no data). */
export interface TarEntry {
  name: string;
  data?: Uint8Array;
  mode: number;
  /** Modification time, milliseconds since the epoch. */
  mtime: number;
}

/** A ustar archive of these entries, in this order (names up to 100 bytes, as a data directory's are). */
export function tarOf(entries: readonly TarEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const { data } = entry;
    const name = data || entry.name.endsWith('/') ? entry.name : `${entry.name}/`;
    if (Buffer.byteLength(name, 'latin1') > 100)
      throw new Error(`tar entry name longer than 100 bytes: ${name}`);
    const header = Buffer.alloc(512);
    const octal = (value: number, at: number, length: number) =>
      header.write(`${value.toString(8).padStart(length - 1, '0')}\0`, at, length, 'latin1');
    header.write(name, 0, 100, 'latin1');
    octal(entry.mode & 0o7777, 100, 8);
    octal(0, 108, 8);
    octal(0, 116, 8);
    octal(data?.length ?? 0, 124, 12);
    octal(Math.floor(entry.mtime / 1000), 136, 12);
    header.write(data ? '0' : '5', 156, 1, 'latin1');
    header.write('ustar\0', 257, 6, 'latin1');
    header.write('00', 263, 2, 'latin1');
    // The checksum counts its own field as eight spaces.
    header.fill(' ', 148, 156);
    const sum = header.reduce((total, byte) => total + byte, 0);
    header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'latin1');
    blocks.push(header);
    if (data) {
      blocks.push(Buffer.from(data.buffer, data.byteOffset, data.length));
      const padding = (512 - (data.length % 512)) % 512;
      if (padding) blocks.push(Buffer.alloc(padding));
    }
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}
