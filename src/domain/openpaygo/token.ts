/**
 * OpenPAYGO Token: activation codes for pay-as-you-go devices (an independent implementation of
 * the open specification by EnAccess, reproducing its official test set).
 *
 * A token is the device's hash chain at a count, with its last digits replaced by the value:
 * - standard tokens: 9 digits; value 0-995 in the last 3 digits (998 = DISABLE_PAYG,
 *   999 = COUNTER_SYNC); chain step = SipHash-2-4 of the previous code as 4 big-endian bytes
 *   written twice, folded to 30 bits (high xor low half, >> 2, minus 73741825 above 999999999);
 * - extended tokens: 12 digits; value 0-999999 in the last 6 digits; chain step = SipHash-2-4 of
 *   the previous code as 8 big-endian bytes, bits 24-63 (minus 99511627777 above 999999999999);
 * - restricted digit set: the token's 30 (or 40) bits written as 15 (or 20) digits 1-4, two bits
 *   per digit, for keypads with only four keys.
 * The value is added to the starting code's last digits (mod 1000 / 1000000). Counts: ADD_TIME
 * uses the next even count above the current one, the other types the next odd count.
 * Decoding searches counts 0..last+64 (last+100 for COUNTER_SYNC) and accepts a count above the
 * last one, or an unused ADD_TIME count within the 16 below it (COUNTER_SYNC: any count above
 * last-64); used counts are tracked in that window.
 */
import { invalid } from '../errors';
import { siphash24Halves } from './siphash';

export type TokenType = 'ADD_TIME' | 'SET_TIME' | 'DISABLE_PAYG' | 'COUNTER_SYNC';
export const TOKEN_TYPES: readonly TokenType[] = ['ADD_TIME', 'SET_TIME', 'DISABLE_PAYG', 'COUNTER_SYNC'];

export const OPENPAYGO = Object.freeze({
  MAX_ACTIVATION_VALUE: 995,
  MAX_ACTIVATION_VALUE_EXTENDED: 999_999,
  PAYG_DISABLE_VALUE: 998,
  COUNTER_SYNC_VALUE: 999,
  MAX_TOKEN_JUMP: 64,
  MAX_TOKEN_JUMP_COUNTER_SYNC: 100,
  MAX_UNUSED_OLDER_TOKENS: 16,
});

export type SecretKey = string | Uint8Array;

/** A 16-byte key from 32 hex characters (or the bytes themselves). */
export function parseSecretKey(key: SecretKey): Uint8Array {
  if (typeof key !== 'string') {
    if (key.length !== 16) throw invalid('secretKey', 'The secret key must be 16 bytes');
    return key;
  }
  if (!/^[0-9a-fA-F]{32}$/.test(key))
    throw invalid('secretKey', 'The secret key must be 32 hexadecimal characters');
  const bytes = new Uint8Array(16);
  for (let i = 0; i < 16; i++) bytes[i] = Number.parseInt(key.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/** Folds a 64-bit hash (as halves) to a 9-digit code. */
function foldStandard(hi: number, lo: number): number {
  const x = ((hi ^ lo) >>> 0) >>> 2;
  return x > 999_999_999 ? x - 73_741_825 : x;
}

/** Folds a 64-bit hash (as halves) to a 12-digit code: bits 24..63. */
function foldExtended(hi: number, lo: number): number {
  const x = hi * 256 + (lo >>> 24);
  return x > 999_999_999_999 ? x - 99_511_627_777 : x;
}

// Scratch message buffer reused by every chain step (the hash is synchronous).
const scratch = new Uint8Array(8);
const scratchView = new DataView(scratch.buffer);

function nextStandard(code: number, key: Uint8Array): number {
  scratchView.setUint32(0, code, false);
  scratchView.setUint32(4, code, false);
  const [hi, lo] = siphash24Halves(key, scratch);
  return foldStandard(hi, lo);
}

function nextExtended(code: number, key: Uint8Array): number {
  scratchView.setUint32(0, Math.floor(code / 2 ** 32), false);
  scratchView.setUint32(4, code >>> 0, false);
  const [hi, lo] = siphash24Halves(key, scratch);
  return foldExtended(hi, lo);
}

/** The starting code the spec derives when none is given: SipHash of the key with itself, folded to 9 digits. */
export function deriveStartingCode(secretKey: SecretKey): number {
  const key = parseSecretKey(secretKey);
  const [hi, lo] = siphash24Halves(key, key);
  return foldStandard(hi, lo);
}

/** The count a new token of this type uses after `count`. */
export function nextCount(count: number, type: TokenType): number {
  const odd = count % 2 === 1;
  if (type === 'ADD_TIME') return odd ? count + 1 : count + 2;
  return odd ? count + 2 : count + 1;
}

interface Variant {
  modulus: number;
  next: (code: number, key: Uint8Array) => number;
  digits: number;
  restrictedDigits: number;
  bits: number;
}

const STANDARD: Variant = { modulus: 1000, next: nextStandard, digits: 9, restrictedDigits: 15, bits: 30 };
const EXTENDED: Variant = {
  modulus: 1_000_000,
  next: nextExtended,
  digits: 12,
  restrictedDigits: 20,
  bits: 40,
};

const putBase = (code: number, base: number, modulus: number) => code - (code % modulus) + base;

function toRestricted(code: number, variant: Variant): string {
  let out = '';
  for (let i = variant.restrictedDigits - 1; i >= 0; i--) {
    out += String((Math.floor(code / 4 ** i) % 4) + 1);
  }
  return out;
}

function fromRestricted(token: string): number {
  let value = 0;
  for (const ch of token) value = value * 4 + (ch.charCodeAt(0) - 49);
  return value;
}

export interface EncodeTokenInput {
  secretKey: SecretKey;
  /** The device's starting code; derived from the key when absent (as the spec does). */
  startingCode?: number;
  /** The last count used for this device (0 for a new device). */
  count: number;
  type: TokenType;
  /** ADD_TIME / SET_TIME only: the amount (e.g. days), 0-995 (extended: 0-999999). */
  value?: number;
  extended?: boolean;
  restrictedDigitSet?: boolean;
}

export interface EncodedToken {
  token: string;
  /** The count the token uses; store it as the device's new count. */
  newCount: number;
}

export function encodeToken(input: EncodeTokenInput): EncodedToken {
  const key = parseSecretKey(input.secretKey);
  const variant = input.extended ? EXTENDED : STANDARD;
  const startingCode = input.startingCode ?? deriveStartingCode(key);
  if (!Number.isSafeInteger(startingCode) || startingCode < 0 || startingCode > 999_999_999) {
    throw invalid('startingCode', 'The starting code must be a whole number of at most 9 digits');
  }
  if (!Number.isSafeInteger(input.count) || input.count < 0 || input.count > 1_000_000) {
    throw invalid('count', 'The token count must be a whole number from 0 to 1000000');
  }
  if (!TOKEN_TYPES.includes(input.type)) throw invalid('type', `Unknown token type ${String(input.type)}`);
  let value: number;
  if (input.type === 'ADD_TIME' || input.type === 'SET_TIME') {
    const max = input.extended ? OPENPAYGO.MAX_ACTIVATION_VALUE_EXTENDED : OPENPAYGO.MAX_ACTIVATION_VALUE;
    if (input.value === undefined || !Number.isInteger(input.value) || input.value < 0 || input.value > max) {
      throw invalid('value', `${input.type} needs a whole value from 0 to ${max}`);
    }
    if (
      input.type === 'SET_TIME' &&
      input.extended &&
      input.value >= OPENPAYGO.PAYG_DISABLE_VALUE &&
      input.value <= 999
    ) {
      // On an odd count these values mean DISABLE_PAYG / COUNTER_SYNC to the decoder.
      throw invalid('value', 'Extended SET_TIME cannot use the values 998 and 999 (reserved)');
    }
    value = input.value;
  } else {
    if (input.value !== undefined && input.value !== null) {
      throw invalid('value', `A value is not allowed for ${input.type} tokens`);
    }
    value = input.type === 'DISABLE_PAYG' ? OPENPAYGO.PAYG_DISABLE_VALUE : OPENPAYGO.COUNTER_SYNC_VALUE;
  }
  const tokenBase = ((startingCode % variant.modulus) + value) % variant.modulus;
  let code = putBase(startingCode, tokenBase, variant.modulus);
  const newCount = nextCount(input.count, input.type);
  for (let i = 0; i < newCount; i++) code = variant.next(code, key);
  const final = putBase(code, tokenBase, variant.modulus);
  const token = input.restrictedDigitSet
    ? toRestricted(final, variant)
    : String(final).padStart(variant.digits, '0');
  return { token, newCount };
}

export interface DecodeTokenInput {
  secretKey: SecretKey;
  startingCode?: number;
  /** The device's last accepted count. */
  lastCount: number;
  /** Counts already used in the window below the last count (from the previous decode). */
  usedCounts?: readonly number[];
  restrictedDigitSet?: boolean;
}

export type DecodedToken =
  | {
      status: 'valid';
      type: TokenType;
      /** ADD_TIME / SET_TIME value; null for DISABLE_PAYG and COUNTER_SYNC. */
      value: number | null;
      count: number;
      /** The device's new last count: max(last count, count). */
      lastCount: number;
      /** Used counts to keep for the next decode. */
      usedCounts: number[];
      extended: boolean;
    }
  | { status: 'already_used' | 'invalid'; reason: string };

function typeFor(count: number, value: number): TokenType {
  if (count % 2 === 0) return 'ADD_TIME';
  if (value === OPENPAYGO.COUNTER_SYNC_VALUE) return 'COUNTER_SYNC';
  if (value === OPENPAYGO.PAYG_DISABLE_VALUE) return 'DISABLE_PAYG';
  return 'SET_TIME';
}

function countIsValid(count: number, lastCount: number, type: TokenType, used: readonly number[]): boolean {
  if (type === 'COUNTER_SYNC') return count > lastCount - OPENPAYGO.MAX_TOKEN_JUMP;
  if (count > lastCount) return true;
  return (
    count > lastCount - OPENPAYGO.MAX_UNUSED_OLDER_TOKENS && type === 'ADD_TIME' && !used.includes(count)
  );
}

/** The used counts after accepting `count`: all of the window for non-ADD_TIME tokens, else the used ones plus this one. */
export function updateUsedCounts(past: readonly number[], count: number, type: TokenType): number[] {
  const highest = Math.max(count, ...past);
  const bottom = highest - OPENPAYGO.MAX_UNUSED_OLDER_TOKENS;
  const out: number[] = [];
  for (let c = Math.max(0, bottom); c <= highest; c++) {
    if (type !== 'ADD_TIME' || c === count || past.includes(c)) out.push(c);
  }
  return out;
}

/**
 * Decodes a token typed on a device. Malformed input gives status 'invalid' with a reason (it is
 * user input); a bad key or count throws.
 */
export function decodeToken(token: string, input: DecodeTokenInput): DecodedToken {
  const key = parseSecretKey(input.secretKey);
  const startingCode = input.startingCode ?? deriveStartingCode(key);
  if (!Number.isSafeInteger(input.lastCount) || input.lastCount < 0) {
    throw invalid('lastCount', 'The last count must be a whole number, 0 or more');
  }
  const text = token.replace(/[\s-]/g, '');
  const restricted = input.restrictedDigitSet ?? false;
  if (restricted ? !/^[1-4]+$/.test(text) : !/^\d+$/.test(text)) {
    return {
      status: 'invalid',
      reason: restricted ? 'A token has only the digits 1 to 4' : 'A token has only digits',
    };
  }
  let variant: Variant;
  if (text.length <= (restricted ? 15 : 9)) variant = STANDARD;
  else if (text.length <= (restricted ? 20 : 12)) variant = EXTENDED;
  else return { status: 'invalid', reason: 'The token is too long' };
  const code = restricted ? fromRestricted(text) : Number(text);
  const used = input.usedCounts ?? [];
  const tokenBase = code % variant.modulus;
  const value = (tokenBase - (startingCode % variant.modulus) + variant.modulus) % variant.modulus;
  const jump =
    value === OPENPAYGO.COUNTER_SYNC_VALUE ? OPENPAYGO.MAX_TOKEN_JUMP_COUNTER_SYNC : OPENPAYGO.MAX_TOKEN_JUMP;
  const maxCount = input.lastCount + jump;
  let current = putBase(startingCode, tokenBase, variant.modulus);
  let olderMatch = false;
  for (let count = 0; count <= maxCount; count++) {
    if (putBase(current, tokenBase, variant.modulus) === code) {
      const type = typeFor(count, value);
      if (countIsValid(count, input.lastCount, type, used)) {
        return {
          status: 'valid',
          type,
          value: type === 'ADD_TIME' || type === 'SET_TIME' ? value : null,
          count,
          lastCount: Math.max(input.lastCount, count),
          usedCounts: updateUsedCounts(used, count, type),
          extended: variant === EXTENDED,
        };
      }
      olderMatch = true;
    }
    current = variant.next(current, key);
  }
  return olderMatch
    ? { status: 'already_used', reason: 'This token was already used or is too old' }
    : { status: 'invalid', reason: 'This token is not valid for this device' };
}
