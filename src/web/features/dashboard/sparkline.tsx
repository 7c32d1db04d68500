/**
 * A 30-day trend as a small SVG line (no chart library: the dashboard stays light). Values that
 * are null (a figure not recorded that day) break the line; a flat series is drawn mid-height.
 */
export interface SparklineProps {
  values: readonly (number | null)[];
  /** What the line shows, for screen readers ("PAR30 over the last 30 days"). */
  label: string;
  width?: number;
  height?: number;
  className?: string;
}

/** The SVG path of a series scaled into the box: one `M` per run of values between gaps. */
export function sparklinePath(values: readonly (number | null)[], width: number, height: number): string {
  const known = values.filter((v): v is number => v !== null && Number.isFinite(v));
  if (!known.length) return '';
  const min = Math.min(...known);
  const max = Math.max(...known);
  const pad = 2;
  const step = values.length > 1 ? (width - pad * 2) / (values.length - 1) : 0;
  const y = (v: number) =>
    max === min ? height / 2 : pad + (height - pad * 2) * (1 - (v - min) / (max - min));
  let path = '';
  let drawing = false;
  values.forEach((value, index) => {
    if (value === null || !Number.isFinite(value)) {
      drawing = false;
      return;
    }
    const x = values.length > 1 ? pad + index * step : width / 2;
    path += `${drawing ? 'L' : 'M'}${x.toFixed(1)} ${y(value).toFixed(1)}`;
    drawing = true;
  });
  return path;
}

export function Sparkline({ values, label, width = 120, height = 32, className }: SparklineProps) {
  const path = sparklinePath(values, width, height);
  const last = [...values].reverse().find((v) => v !== null);
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${width} ${height}`}
      width={width}
      height={height}
      className={className}
      data-testid="sparkline"
    >
      <title>{label}</title>
      {path && (
        <path
          d={path}
          fill="none"
          stroke="currentColor"
          strokeWidth={1.5}
          strokeLinejoin="round"
          strokeLinecap="round"
        />
      )}
      {path && last !== undefined && values.length === 1 && (
        <circle cx={width / 2} cy={height / 2} r={2} fill="currentColor" />
      )}
    </svg>
  );
}
