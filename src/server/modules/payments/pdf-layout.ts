import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';

/**
 * A small A4 layout over pdf-lib for the payment documents (receipt, statement): a title block,
 * label/value pairs, and tables of right-aligned columns that carry over to a new page with their
 * header. Only the standard fonts, so only WinAnsi text (anything else becomes '?').
 */
const A4: [number, number] = [595.28, 841.89];
export const MARGIN = 48;
export const RIGHT = A4[0] - MARGIN;
const INK = rgb(0.12, 0.14, 0.2);
const MUTED = rgb(0.4, 0.43, 0.5);
const RULE = rgb(0.85, 0.87, 0.9);
const ALERT = rgb(0.75, 0.1, 0.1);

function safe(text: string): string {
  return text.replace(/[^\x20-\x7e\u00a0-\u00ff\u2013\u2014\u2018\u2019\u201c\u201d\u2022\u20ac]/g, '?');
}

export interface TextOptions {
  size?: number;
  bold?: boolean;
  muted?: boolean;
  alert?: boolean;
}

/** A table column: its heading, and its right edge (right-aligned) or left edge (`left`). */
export interface Column {
  label: string;
  at: number;
  left?: boolean;
}

export class PdfLayout {
  private page!: PDFPage;
  y = 0;
  private constructor(
    readonly pdf: PDFDocument,
    private readonly regular: PDFFont,
    private readonly boldFont: PDFFont,
  ) {
    this.newPage();
  }

  static async create(title: string, author: string): Promise<PdfLayout> {
    const pdf = await PDFDocument.create();
    pdf.setTitle(safe(title));
    pdf.setAuthor(safe(author));
    pdf.setCreator('DeviceFin');
    const regular = await pdf.embedFont(StandardFonts.Helvetica);
    const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
    return new PdfLayout(pdf, regular, bold);
  }

  newPage(): void {
    this.page = this.pdf.addPage(A4);
    this.y = A4[1] - MARGIN;
  }

  /** A new page when fewer than `height` points are left. */
  ensure(height: number): boolean {
    if (this.y - height >= MARGIN) return false;
    this.newPage();
    return true;
  }

  private style(options: TextOptions) {
    return {
      size: options.size ?? 10,
      font: options.bold ? this.boldFont : this.regular,
      color: options.alert ? ALERT : options.muted ? MUTED : INK,
    };
  }

  text(value: string, x: number, options: TextOptions = {}): void {
    this.page.drawText(safe(value), { x, y: this.y, ...this.style(options) });
  }

  rightText(value: string, right: number, options: TextOptions = {}): void {
    const style = this.style(options);
    const text = safe(value);
    this.page.drawText(text, {
      x: right - style.font.widthOfTextAtSize(text, style.size),
      y: this.y,
      ...style,
    });
  }

  rule(): void {
    this.page.drawLine({
      start: { x: MARGIN, y: this.y + 4 },
      end: { x: RIGHT, y: this.y + 4 },
      thickness: 0.5,
      color: RULE,
    });
  }

  heading(title: string): void {
    this.ensure(40);
    this.text(title, MARGIN, { size: 12, bold: true });
    this.y -= 8;
    this.rule();
    this.y -= 12;
  }

  /** Label on the left, value on the right, one per line. */
  pairs(title: string, rows: ReadonlyArray<readonly [string, string]>): void {
    this.ensure(24 + rows.length * 16);
    this.heading(title);
    for (const [label, value] of rows) {
      this.text(label, MARGIN, { muted: true });
      this.rightText(value, RIGHT, { bold: true });
      this.y -= 16;
    }
    this.y -= 10;
  }

  /** Rows under a header; a row may be drawn in red (a reversed payment) or muted (a detail line). */
  table(
    columns: readonly Column[],
    rows: ReadonlyArray<{ cells: readonly string[]; alert?: boolean; muted?: boolean }>,
  ): void {
    const header = () => {
      for (const column of columns) {
        if (column.left) this.text(column.label, column.at, { bold: true, size: 8 });
        else this.rightText(column.label, column.at, { bold: true, size: 8 });
      }
      this.y -= 13;
    };
    header();
    for (const row of rows) {
      if (this.ensure(12)) header();
      columns.forEach((column, index) => {
        const cell = row.cells[index] ?? '';
        const options = { size: 8, alert: !!row.alert, muted: !!row.muted };
        if (column.left) this.text(cell, column.at, options);
        else this.rightText(cell, column.at, options);
      });
      this.y -= 12;
    }
    this.y -= 14;
  }

  /** Page numbers in the footer, then the bytes. */
  async save(footer: string): Promise<Uint8Array> {
    const pages = this.pdf.getPages();
    pages.forEach((page, index) => {
      page.drawText(safe(`${footer}  -  page ${index + 1} of ${pages.length}`), {
        x: MARGIN,
        y: 24,
        size: 8,
        font: this.regular,
        color: MUTED,
      });
    });
    return this.pdf.save();
  }
}

/** A moment as the organisation reads it: "2025-03-04 14:05 (Africa/Nairobi)". */
export function localDateTime(iso: string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')} (${timeZone})`;
}
