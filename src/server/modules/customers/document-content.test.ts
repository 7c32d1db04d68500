import { describe, expect, it } from 'vitest';
import { DEMO_JPEG, DEMO_PDF, DEMO_PNG } from '../../demo/files';
import { checkDocumentContent, jpegSize, pngSize } from './document-content';

const refusal = (data: Buffer) =>
  checkDocumentContent(data).then(
    () => null,
    (error: { statusCode: number; code: string; message: string }) => ({
      status: error.statusCode,
      code: error.code,
      message: error.message,
    }),
  );

describe('KYC documents are checked by their content', () => {
  it('reads real JPEG, PNG and PDF files, with their dimensions', async () => {
    expect(jpegSize(DEMO_JPEG)).toEqual({ width: 1, height: 1 });
    expect(pngSize(DEMO_PNG)).toEqual({ width: 1, height: 1 });
    expect(await checkDocumentContent(DEMO_JPEG)).toBe('image/jpeg');
    expect(await checkDocumentContent(DEMO_PNG)).toBe('image/png');
    expect(await checkDocumentContent(DEMO_PDF)).toBe('application/pdf');
  });

  it('refuses a 14-byte fake PDF, and any file that only starts like one of the types', async () => {
    const fakePdf = Buffer.from('%PDF-1.4\n%%EOF');
    expect(fakePdf).toHaveLength(14);
    expect(await refusal(fakePdf)).toEqual({
      status: 422,
      code: 'UNREADABLE_FILE',
      message: 'The file starts like a PDF but is not a readable PDF (damaged or not a real PDF)',
    });
    const fakeJpeg = Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
      Buffer.from('JFIF body'),
    ]);
    expect(await refusal(fakeJpeg)).toMatchObject({ status: 422, code: 'UNREADABLE_FILE' });
    expect((await refusal(fakeJpeg))?.message).toMatch(/starts like a JPEG image but is not a readable one/);
    const fakePng = Buffer.concat([DEMO_PNG.subarray(0, 8), Buffer.from('sample png body')]);
    expect((await refusal(fakePng))?.message).toMatch(/starts like a PNG image/);
    // Truncated: the header is there, the image data and the end are not.
    expect(await refusal(DEMO_PNG.subarray(0, 40))).toMatchObject({ code: 'UNREADABLE_FILE' });
    expect(await refusal(Buffer.from('MZ not a document'))).toMatchObject({
      status: 415,
      code: 'UNSUPPORTED_FILE_TYPE',
    });
  });

  it('refuses an image with no pixels or absurd dimensions', async () => {
    // The demo JPEG's frame header (SOF9) at its height and width bytes.
    const sof = DEMO_JPEG.indexOf(Buffer.from([0xff, 0xc9]));
    const zero = Buffer.from(DEMO_JPEG);
    zero.writeUInt16BE(0, sof + 7);
    expect(await refusal(zero)).toMatchObject({ code: 'UNREADABLE_FILE' });
    const huge = Buffer.from(DEMO_PNG);
    huge.writeUInt32BE(50_000, 16);
    expect(await refusal(huge)).toEqual({
      status: 422,
      code: 'UNREADABLE_FILE',
      message: 'The image is 50000 x 1 pixels; at most 20,000 a side is accepted',
    });
  });
});
