/**
 * How many SMS a text costs (issue 15 "The SMS segment count and cost estimate"). A text written
 * only in the GSM 03.38 alphabet goes as GSM-7: 160 characters in one message, 153 per part once
 * it is split (the concatenation header takes the rest); the extension characters (€, [, ], {, },
 * \, ~, ^, |, form feed) take two places each and are never split across parts. Any other
 * character sends the whole text as UCS-2: 70 UTF-16 units alone, 67 per part, and a character
 * outside the basic plane (an emoji) is two units that stay in one part.
 */

const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENSION = '\f^{}\\[~]|€';

const BASIC = new Set(GSM_BASIC);
const EXTENSION = new Set(GSM_EXTENSION);

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SmsSegments {
  encoding: SmsEncoding;
  /** Messages the text is sent as (at least one, even for an empty text). */
  segments: number;
  /** Septets (GSM-7) or UTF-16 units (UCS-2) the text takes. */
  units: number;
  /** What one message holds in this encoding: 160 or 70 alone, 153 or 67 per part when split. */
  perSegment: number;
}

/** The text's encoding, units and message count. */
export function smsSegments(text: string): SmsSegments {
  const chars = [...text];
  const gsm = chars.every((ch) => BASIC.has(ch) || EXTENSION.has(ch));
  // Each character's width in its encoding: a part never splits one.
  const widths = gsm ? chars.map((ch) => (EXTENSION.has(ch) ? 2 : 1)) : chars.map((ch) => ch.length);
  const units = widths.reduce((sum, width) => sum + width, 0);
  const single = gsm ? 160 : 70;
  const part = gsm ? 153 : 67;
  const encoding: SmsEncoding = gsm ? 'GSM-7' : 'UCS-2';
  if (units <= single) return { encoding, segments: 1, units, perSegment: single };
  let segments = 1;
  let used = 0;
  for (const width of widths) {
    if (used + width > part) {
      segments += 1;
      used = 0;
    }
    used += width;
  }
  return { encoding, segments, units, perSegment: part };
}
