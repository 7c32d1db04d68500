import { randomBytes } from 'node:crypto';

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

/** Small files that are what their first bytes say. */
export const SAMPLE_FILES = {
  jpeg: Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
    Buffer.from('JFIF sample jpeg body'),
  ]),
  png: Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.from('sample png body'),
  ]),
  pdf: Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\n<script>alert(1)</script>\n%%EOF\n'),
  exe: Buffer.concat([
    Buffer.from('MZ'),
    Buffer.alloc(64, 0x90),
    Buffer.from('This program cannot be run in DOS mode'),
  ]),
};
