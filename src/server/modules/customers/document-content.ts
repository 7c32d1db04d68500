import { PDFDocument } from 'pdf-lib';
import { AppError } from '../../errors';

export type DetectedType = 'image/jpeg' | 'image/png' | 'application/pdf';

/** A side longer than this is no photo of an ID; it is refused rather than sent to browsers. */
export const MAX_IMAGE_SIDE = 20_000;

const startsWith = (data: Buffer, bytes: readonly number[]) =>
  data.length >= bytes.length && bytes.every((byte, index) => data[index] === byte);

/** The file's claimed type from its first bytes (never from its name or the declared type). */
export function detectFileType(data: Buffer): DetectedType | null {
  if (startsWith(data, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(data, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf';
  return null;
}

/**
 * PNG: the chunks from the signature to IEND stay inside the file, the first is an IHDR with
 * non-zero dimensions, and image data (IDAT) comes before the end.
 */
export function pngSize(data: Buffer): { width: number; height: number } | null {
  let offset = 8;
  let size: { width: number; height: number } | null = null;
  let sawData = false;
  while (offset + 12 <= data.length) {
    const length = data.readUInt32BE(offset);
    const type = data.toString('latin1', offset + 4, offset + 8);
    const end = offset + 12 + length;
    if (end > data.length) return null;
    if (offset === 8) {
      if (type !== 'IHDR' || length !== 13) return null;
      size = { width: data.readUInt32BE(offset + 8), height: data.readUInt32BE(offset + 12) };
    }
    if (type === 'IDAT') sawData = true;
    if (type === 'IEND') return size && sawData && size.width > 0 && size.height > 0 ? size : null;
    offset = end;
  }
  return null;
}

/** JPEG: the marker segments up to the frame header (SOFn), whose dimensions must not be zero. */
export function jpegSize(data: Buffer): { width: number; height: number } | null {
  let offset = 2;
  while (offset + 4 <= data.length) {
    if (data[offset] !== 0xff) return null;
    const marker = data[offset + 1] as number;
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    // Markers without a length: TEM and the restart markers.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2;
      continue;
    }
    // Image data or the end before any frame header: not a picture.
    if (marker === 0xda || marker === 0xd9) return null;
    const length = data.readUInt16BE(offset + 2);
    if (length < 2 || offset + 2 + length > data.length) return null;
    // SOF0-SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (length < 8) return null;
      const height = data.readUInt16BE(offset + 5);
      const width = data.readUInt16BE(offset + 7);
      return width > 0 && height > 0 ? { width, height } : null;
    }
    offset += 2 + length;
  }
  return null;
}

/** PDF: it parses (pdf-lib, already used for the key facts) and has at least one page. */
async function pdfProblem(data: Buffer): Promise<string | null> {
  try {
    const document = await PDFDocument.load(data, { updateMetadata: false, throwOnInvalidObject: true });
    return document.getPageCount() > 0 ? null : 'The PDF has no pages';
  } catch (error) {
    if (error instanceof Error && error.name === 'EncryptedPDFError') {
      return 'The PDF is password-protected; upload it without a password';
    }
    return 'The file starts like a PDF but is not a readable PDF (damaged or not a real PDF)';
  }
}

function unreadable(message: string): AppError {
  return new AppError(422, 'UNREADABLE_FILE', message, [{ field: 'file', message }]);
}

/**
 * What a KYC upload really is, checked by its content: the first bytes name an accepted type
 * (else 415), and the file must then read as that type, an image with its dimensions or a PDF
 * with its pages (else 422 with what is wrong). A renamed or truncated file is refused here.
 */
export async function checkDocumentContent(data: Buffer): Promise<DetectedType> {
  const type = detectFileType(data);
  if (!type) {
    throw new AppError(
      415,
      'UNSUPPORTED_FILE_TYPE',
      'Only JPEG, PNG or PDF files are accepted; this file is none of them (whatever its name says)',
      [{ field: 'file', message: 'Only JPEG, PNG or PDF files are accepted' }],
    );
  }
  if (type === 'application/pdf') {
    const problem = await pdfProblem(data);
    if (problem) throw unreadable(problem);
    return type;
  }
  const size = type === 'image/png' ? pngSize(data) : jpegSize(data);
  const name = type === 'image/png' ? 'PNG' : 'JPEG';
  if (!size) {
    throw unreadable(
      `The file starts like a ${name} image but is not a readable one (damaged or not a real image)`,
    );
  }
  if (size.width > MAX_IMAGE_SIDE || size.height > MAX_IMAGE_SIDE) {
    throw unreadable(
      `The image is ${size.width} x ${size.height} pixels; at most ${MAX_IMAGE_SIDE.toLocaleString('en')} a side is accepted`,
    );
  }
  return type;
}
