/**
 * A tar archive (ustar, as PGlite's dumps are) without the entries `drop` names. Each entry is a
 * 512-byte header (name at 0 with its prefix at 345, size in octal at 124) and its data padded to
 * 512 bytes; two zero blocks end the archive.
 */
export function withoutEntries(tar: Buffer, drop: (name: string) => boolean): Buffer {
  const kept: Buffer[] = [];
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
    if (!drop(name)) kept.push(tar.subarray(at, next));
    at = next;
  }
  kept.push(Buffer.alloc(1024));
  return Buffer.concat(kept);
}
