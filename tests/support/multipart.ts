import { randomBytes } from 'node:crypto';
import { DEMO_JPEG, DEMO_PNG } from '../../src/server/demo/files';

export interface FilePart {
  field?: string;
  name: string;
  contentType?: string;
  data: Buffer;
}

/** A multipart/form-data body for TestClient's `raw` option: its bytes and its content-type header. */
export function multipart(
  fields: Record<string, string>,
  files: FilePart[] = [],
): { raw: Buffer; headers: Record<string, string> } {
  const boundary = `----test${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\nContent-Type: ${file.contentType ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    raw: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/**
 * Small files that are what their first bytes say and read as such (uploads are checked by
 * content: an image's header, a PDF's pages). The PDF carries a script tag in a comment, to show
 * it is served so that no browser runs it.
 */
export const SAMPLE_FILES = {
  jpeg: DEMO_JPEG,
  png: DEMO_PNG,
  pdf: Buffer.from(
    [
      '%PDF-1.4',
      '% <script>alert(1)</script>',
      '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
      '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
      '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj',
      'trailer << /Root 1 0 R >>',
      '%%EOF',
    ].join('\n'),
    'latin1',
  ),
  exe: Buffer.concat([
    Buffer.from('MZ'),
    Buffer.alloc(64, 0x90),
    Buffer.from('This program cannot be run in DOS mode'),
  ]),
};
