import { randomFillSync } from 'node:crypto';

/** Random bytes drawn 4 KiB at a time: one call into the OS per 256 ids, not one per id. */
const pool = Buffer.allocUnsafe(4096);
let used = pool.length;

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/**
 * A new row's id (decision 049): a UUID in the RFC 9562 version 7 layout, its first 48 bits the
 * milliseconds since 1970 and 74 random bits after. Rows written close together in time get ids
 * close together, so each primary key (and every index led by an id, such as a journal line's
 * entry) grows at its right edge, in pages already in memory, instead of touching a random page
 * of the whole index per row. Not for secrets: a token or code takes 122 random bits
 * (`randomBytes`, `randomUUID`). The database's `new_row_id()` (migration 0045) writes the same
 * layout for rows inserted by set-based statements.
 */
export function newId(): string {
  if (used + 16 > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const bytes = pool.subarray(used, used + 16);
  used += 16;
  let ms = Date.now();
  for (let i = 5; i >= 0; i -= 1) {
    bytes[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x70;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  let out = '';
  for (let i = 0; i < 16; i += 1) {
    out += HEX[bytes[i] as number];
    if (i === 3 || i === 5 || i === 7 || i === 9) out += '-';
  }
  return out;
}
