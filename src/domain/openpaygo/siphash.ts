/**
 * SipHash-2-4 (Aumasson & Bernstein), 128-bit key, 64-bit output, on plain Uint8Arrays so it runs
 * in the browser and in Node alike (no Buffer, no node: imports). The 64-bit lanes are held as
 * pairs of unsigned 32-bit halves; the result is returned as a bigint or as its halves.
 */

// The four 64-bit lanes as unsigned 32-bit halves. Module-level state: the hash is synchronous
// and never re-entered, and plain variables keep V8 from allocating per call.
let v0h = 0;
let v0l = 0;
let v1h = 0;
let v1l = 0;
let v2h = 0;
let v2l = 0;
let v3h = 0;
let v3l = 0;

function sipRounds(count: number): void {
  for (let i = 0; i < count; i++) {
    // v0 += v1; v1 = rotl(v1, 13); v1 ^= v0; v0 = rotl(v0, 32)
    let lo = v0l + v1l;
    v0h = (v0h + v1h + (lo > 0xffffffff ? 1 : 0)) >>> 0;
    v0l = lo >>> 0;
    let th = ((v1h << 13) | (v1l >>> 19)) >>> 0;
    let tl = ((v1l << 13) | (v1h >>> 19)) >>> 0;
    v1h = (th ^ v0h) >>> 0;
    v1l = (tl ^ v0l) >>> 0;
    th = v0h;
    v0h = v0l;
    v0l = th;
    // v2 += v3; v3 = rotl(v3, 16); v3 ^= v2
    lo = v2l + v3l;
    v2h = (v2h + v3h + (lo > 0xffffffff ? 1 : 0)) >>> 0;
    v2l = lo >>> 0;
    th = ((v3h << 16) | (v3l >>> 16)) >>> 0;
    tl = ((v3l << 16) | (v3h >>> 16)) >>> 0;
    v3h = (th ^ v2h) >>> 0;
    v3l = (tl ^ v2l) >>> 0;
    // v0 += v3; v3 = rotl(v3, 21); v3 ^= v0
    lo = v0l + v3l;
    v0h = (v0h + v3h + (lo > 0xffffffff ? 1 : 0)) >>> 0;
    v0l = lo >>> 0;
    th = ((v3h << 21) | (v3l >>> 11)) >>> 0;
    tl = ((v3l << 21) | (v3h >>> 11)) >>> 0;
    v3h = (th ^ v0h) >>> 0;
    v3l = (tl ^ v0l) >>> 0;
    // v2 += v1; v1 = rotl(v1, 17); v1 ^= v2; v2 = rotl(v2, 32)
    lo = v2l + v1l;
    v2h = (v2h + v1h + (lo > 0xffffffff ? 1 : 0)) >>> 0;
    v2l = lo >>> 0;
    th = ((v1h << 17) | (v1l >>> 15)) >>> 0;
    tl = ((v1l << 17) | (v1h >>> 15)) >>> 0;
    v1h = (th ^ v2h) >>> 0;
    v1l = (tl ^ v2l) >>> 0;
    th = v2h;
    v2h = v2l;
    v2l = th;
  }
}

/** The hash as [high 32 bits, low 32 bits]. */
export function siphash24Halves(key: Uint8Array, message: Uint8Array): [number, number] {
  if (key.length !== 16) throw new RangeError('SipHash needs a 16-byte key');
  const k0l = readUint32LE(key, 0);
  const k0h = readUint32LE(key, 4);
  const k1l = readUint32LE(key, 8);
  const k1h = readUint32LE(key, 12);
  // v0..v3 = k ^ "somepseudorandomlygeneratedbytes"
  v0h = (k0h ^ 0x736f6d65) >>> 0;
  v0l = (k0l ^ 0x70736575) >>> 0;
  v1h = (k1h ^ 0x646f7261) >>> 0;
  v1l = (k1l ^ 0x6e646f6d) >>> 0;
  v2h = (k0h ^ 0x6c796765) >>> 0;
  v2l = (k0l ^ 0x6e657261) >>> 0;
  v3h = (k1h ^ 0x74656462) >>> 0;
  v3l = (k1l ^ 0x79746573) >>> 0;

  const length = message.length;
  const fullBlocks = length >>> 3;
  for (let i = 0; i < fullBlocks; i++) {
    const ml = readUint32LE(message, i * 8);
    const mh = readUint32LE(message, i * 8 + 4);
    v3l = (v3l ^ ml) >>> 0;
    v3h = (v3h ^ mh) >>> 0;
    sipRounds(2);
    v0l = (v0l ^ ml) >>> 0;
    v0h = (v0h ^ mh) >>> 0;
  }
  // Last block: the remaining bytes, little-endian, with (length mod 256) in the top byte.
  let bl = 0;
  let bh = (length & 0xff) << 24;
  const tail = fullBlocks * 8;
  for (let i = 0; i < length - tail; i++) {
    const byte = message[tail + i] as number;
    if (i < 4) bl |= byte << (8 * i);
    else bh |= byte << (8 * (i - 4));
  }
  bl >>>= 0;
  bh >>>= 0;
  v3l = (v3l ^ bl) >>> 0;
  v3h = (v3h ^ bh) >>> 0;
  sipRounds(2);
  v0l = (v0l ^ bl) >>> 0;
  v0h = (v0h ^ bh) >>> 0;
  v2l = (v2l ^ 0xff) >>> 0;
  sipRounds(4);
  return [(v0h ^ v1h ^ v2h ^ v3h) >>> 0, (v0l ^ v1l ^ v2l ^ v3l) >>> 0];
}

function readUint32LE(bytes: Uint8Array, offset: number): number {
  return (
    ((bytes[offset] as number) |
      ((bytes[offset + 1] as number) << 8) |
      ((bytes[offset + 2] as number) << 16) |
      ((bytes[offset + 3] as number) << 24)) >>>
    0
  );
}

/** SipHash-2-4 of `message` under the 16-byte `key`, as an unsigned 64-bit bigint. */
export function siphash24(key: Uint8Array, message: Uint8Array): bigint {
  const [hi, lo] = siphash24Halves(key, message);
  return (BigInt(hi) << 32n) | BigInt(lo);
}
