import type { DEMO_IMAGE_TYPES } from '../../../contracts/demo';
import { AppError } from '../../errors';
import { detectFileType, jpegSize, MAX_IMAGE_SIDE, pngSize } from '../customers/document-content';

export type DemoImageType = (typeof DEMO_IMAGE_TYPES)[number];
type Size = { width: number; height: number };

const startsWith = (data: Buffer, bytes: readonly number[], at = 0) =>
  data.length >= at + bytes.length && bytes.every((byte, index) => data[at + index] === byte);
const ascii = (data: Buffer, at: number, text: string) =>
  data.length >= at + text.length && data.toString('latin1', at, at + text.length) === text;

/**
 * The claimed type from the first bytes, never from the name or the declared type: JPEG and PNG
 * as a KYC upload recognises them (a PDF is no picture), and WebP.
 */
export function detectImageType(data: Buffer): DemoImageType | null {
  const type = detectFileType(data);
  if (type === 'image/jpeg' || type === 'image/png') return type;
  if (ascii(data, 0, 'RIFF') && ascii(data, 8, 'WEBP')) return 'image/webp';
  return null;
}

/**
 * WebP: a RIFF container no longer than the file whose first chunk is a lossy (VP8), lossless
 * (VP8L) or extended (VP8X) image header with non-zero dimensions.
 */
export function webpSize(data: Buffer): Size | null {
  if (data.length < 30 || data.readUInt32LE(4) + 8 > data.length) return null;
  if (ascii(data, 12, 'VP8X')) {
    return { width: data.readUIntLE(24, 3) + 1, height: data.readUIntLE(27, 3) + 1 };
  }
  if (ascii(data, 12, 'VP8L')) {
    if (data[20] !== 0x2f) return null;
    const bits = data.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (ascii(data, 12, 'VP8 ')) {
    if (!startsWith(data, [0x9d, 0x01, 0x2a], 23)) return null;
    const width = data.readUInt16LE(26) & 0x3fff;
    const height = data.readUInt16LE(28) & 0x3fff;
    return width && height ? { width, height } : null;
  }
  return null;
}

/**
 * What an uploaded demo picture really is: its first bytes name PNG, JPEG or WebP (else 415) and
 * its header reads as that type with sensible dimensions (else 422). Browsers are then told the
 * type found here, so a renamed HTML or script file is never served as something it is not.
 */
export function checkImageContent(data: Buffer): DemoImageType {
  const type = detectImageType(data);
  if (!type) {
    throw new AppError(415, 'UNSUPPORTED_FILE_TYPE', 'Only PNG, JPEG or WebP images are accepted', [
      { field: 'file', message: 'Only PNG, JPEG or WebP images are accepted (whatever the file name says)' },
    ]);
  }
  const size = type === 'image/png' ? pngSize(data) : type === 'image/jpeg' ? jpegSize(data) : webpSize(data);
  const unreadable = (message: string) =>
    new AppError(422, 'UNREADABLE_FILE', message, [{ field: 'file', message }]);
  if (!size)
    throw unreadable('The file starts like an image but is not a readable one (damaged or not a real image)');
  if (size.width > MAX_IMAGE_SIDE || size.height > MAX_IMAGE_SIDE) {
    throw unreadable(
      `The image is ${size.width} x ${size.height} pixels; at most ${MAX_IMAGE_SIDE} a side is accepted`,
    );
  }
  return type;
}
