import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { smsSegments } from './sms-segments';

describe('SMS segments', () => {
  it('counts GSM-7 texts: 160 alone, 153 per part', () => {
    expect(smsSegments('')).toEqual({ encoding: 'GSM-7', segments: 1, units: 0, perSegment: 160 });
    expect(smsSegments('a'.repeat(160))).toMatchObject({ encoding: 'GSM-7', segments: 1, units: 160 });
    expect(smsSegments('a'.repeat(161))).toMatchObject({ segments: 2, perSegment: 153 });
    expect(smsSegments('a'.repeat(306))).toMatchObject({ segments: 2 });
    expect(smsSegments('a'.repeat(307))).toMatchObject({ segments: 3 });
  });

  it('counts an extension character as two septets, never split across parts', () => {
    expect(smsSegments('€'.repeat(80))).toMatchObject({ encoding: 'GSM-7', segments: 1, units: 160 });
    expect(smsSegments('€'.repeat(81))).toMatchObject({ segments: 2, units: 162 });
    // 152 plain then a € (2) does not fit the first part's last place: it opens the second.
    expect(smsSegments(`${'a'.repeat(152)}€${'a'.repeat(151)}`)).toMatchObject({ segments: 2, units: 305 });
    expect(smsSegments(`${'a'.repeat(152)}€${'a'.repeat(152)}`)).toMatchObject({ segments: 3 });
  });

  it('sends any other character as UCS-2: 70 alone, 67 per part, emoji as two units', () => {
    expect(smsSegments('Habari ✓')).toMatchObject({ encoding: 'UCS-2', segments: 1, units: 8 });
    expect(smsSegments('ü'.repeat(70))).toMatchObject({ encoding: 'GSM-7' });
    expect(smsSegments('ж'.repeat(70))).toMatchObject({ encoding: 'UCS-2', segments: 1 });
    expect(smsSegments('ж'.repeat(71))).toMatchObject({ segments: 2, perSegment: 67 });
    expect(smsSegments('😀'.repeat(35))).toMatchObject({ segments: 1, units: 70 });
    expect(smsSegments(`${'ж'.repeat(69)}😀`)).toMatchObject({ segments: 2, units: 71 });
    expect(smsSegments(`${'ж'.repeat(66)}😀${'ж'.repeat(67)}`)).toMatchObject({ segments: 3 });
  });

  it('never counts fewer parts than the units need, nor more than one per character', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 600 }), (text) => {
        const { segments, units, perSegment } = smsSegments(text);
        expect(segments).toBeGreaterThanOrEqual(Math.max(1, Math.ceil(units / perSegment)));
        expect(segments).toBeLessThanOrEqual(Math.max(1, [...text].length));
      }),
    );
  });

  it('adds parts as the text grows, never fewer', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), fc.string({ maxLength: 10 }), (text, more) => {
        const a = smsSegments(text);
        const b = smsSegments(text + more);
        if (a.encoding === b.encoding) expect(b.segments).toBeGreaterThanOrEqual(a.segments);
      }),
    );
  });
});
