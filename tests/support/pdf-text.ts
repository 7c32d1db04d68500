import { inflateSync } from 'node:zlib';

/**
 * The text lines drawn in a PDF that pdf-lib wrote with its standard fonts: each content stream
 * is inflated and each `<hex> Tj` string decoded (WinAnsi, which is Latin-1 for what we draw).
 * Enough to check the figures in a generated document; not a general PDF reader.
 */
export function pdfTextLines(pdf: Uint8Array): string[] {
  const bytes = Buffer.from(pdf);
  const source = bytes.toString('latin1');
  const lines: string[] = [];
  const streamStart = /stream\r?\n/g;
  for (let match = streamStart.exec(source); match; match = streamStart.exec(source)) {
    const start = match.index + match[0].length;
    const end = source.indexOf('endstream', start);
    let content: string;
    try {
      content = inflateSync(bytes.subarray(start, end)).toString('latin1');
    } catch {
      continue; // not a deflated stream
    }
    for (const [, hex] of content.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)) {
      lines.push(Buffer.from(hex ?? '', 'hex').toString('latin1'));
    }
  }
  return lines;
}
