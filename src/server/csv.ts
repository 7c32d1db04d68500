/**
 * RFC 4180 CSV reader: quoted fields (with "" for a quote, commas and line breaks inside),
 * CRLF or LF line ends, a leading byte-order mark. Each record keeps the line it started on.
 * Blank lines are skipped. Also reads semicolon-separated files when the header has no comma.
 */
export interface CsvRecord {
  line: number;
  cells: string[];
}

export function parseCsv(text: string): CsvRecord[] {
  const input = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const firstLineEnd = input.search(/\r?\n/);
  const header = firstLineEnd < 0 ? input : input.slice(0, firstLineEnd);
  const separator = !header.includes(',') && header.includes(';') ? ';' : ',';
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  let i = 0;
  const endRecord = () => {
    cells.push(cell);
    if (cells.length > 1 || cells[0] !== '') records.push({ line: recordLine, cells });
    cells = [];
    cell = '';
  };
  while (i < input.length) {
    const ch = input[i] as string;
    if (quoted) {
      if (ch === '"') {
        if (input[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else {
        if (ch === '\n') line += 1;
        cell += ch;
      }
      i += 1;
      continue;
    }
    if (ch === '"' && cell === '') {
      quoted = true;
    } else if (ch === separator) {
      cells.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && input[i + 1] === '\n') i += 1;
      endRecord();
      line += 1;
      recordLine = line;
    } else {
      cell += ch;
    }
    i += 1;
  }
  if (cell !== '' || cells.length) endRecord();
  return records;
}
