export interface Measurement {
  name: string;
  value: number;
  unit: string;
  /** The budget and which way it points. */
  budget?: { limit: number; kind: 'max' | 'min' };
  note?: string;
}

export function verdict(m: Measurement): string {
  if (!m.budget) return '';
  const ok = m.budget.kind === 'max' ? m.value <= m.budget.limit : m.value >= m.budget.limit;
  return `${ok ? 'PASS' : 'FAIL'} (${m.budget.kind === 'max' ? '<=' : '>='} ${m.budget.limit} ${m.unit})`;
}

export function printTable(measurements: Measurement[]): void {
  const rows = measurements.map((m) => [m.name, `${round(m.value)} ${m.unit}`, verdict(m), m.note ?? '']);
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((row) => row[i]?.length ?? 0)));
  for (const row of rows) {
    console.log(row.map((cell, i) => (i < 3 ? cell.padEnd(widths[i] ?? 0) : cell)).join('  '));
  }
}

export function round(value: number): string {
  return value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(value >= 10 ? 1 : 2);
}

export function failed(measurements: Measurement[]): Measurement[] {
  return measurements.filter((m) => verdict(m).startsWith('FAIL'));
}
