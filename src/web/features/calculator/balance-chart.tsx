import { type KeyboardEvent, type PointerEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { minorUnitDigits, type ScheduleRow } from '@/domain';
import { formatBusinessDate } from '@/web/lib/format';
import { money } from '@/web/lib/money';

/**
 * Balance over time: what is still owed after each instalment (area) and what has been paid so far
 * (line). Plain SVG, no chart library; loaded on demand. Pointer, touch and arrow keys move a
 * readout. The schedule table below is the accessible text of the same numbers.
 */

interface BalanceChartProps {
  rows: readonly ScheduleRow[];
  principal: number;
  currency: string;
  startDate: string;
}

interface Point {
  n: number;
  date: string;
  balance: number;
  paid: number;
}

const HEIGHT = 240;
const MARGIN = { top: 12, right: 16, bottom: 28, left: 64 };
/** Enough vertices for a smooth curve at any width; 3,660 daily rows are thinned to this. */
const MAX_VERTICES = 480;

export default function BalanceChart({ rows, principal, currency, startDate }: BalanceChartProps) {
  const containerRef = useRef<HTMLElement>(null);
  const [width, setWidth] = useState(640);
  const [active, setActive] = useState<number | null>(null);
  const titleId = useId();

  useEffect(() => {
    const element = containerRef.current;
    if (!element) return;
    const measure = () => setWidth(Math.max(280, Math.round(element.getBoundingClientRect().width) || 640));
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const points = useMemo<Point[]>(() => {
    const out: Point[] = [{ n: 0, date: startDate, balance: principal, paid: 0 }];
    let paid = 0;
    for (const row of rows) {
      paid += row.total;
      out.push({ n: row.n, date: row.dueDate, balance: row.balance, paid });
    }
    return out;
  }, [rows, principal, startDate]);

  const last = points[points.length - 1] ?? points[0];
  const maxValue = Math.max(principal, last?.paid ?? 0, 1);
  const ticks = niceTicks(maxValue, 4);
  const top = ticks[ticks.length - 1] ?? maxValue;
  const innerWidth = width - MARGIN.left - MARGIN.right;
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const span = Math.max(1, points.length - 1);
  const x = (i: number) => MARGIN.left + (i / span) * innerWidth;
  const y = (v: number) => MARGIN.top + innerHeight - (v / top) * innerHeight;

  // Paths are rebuilt per render: at most MAX_VERTICES vertices, cheaper than memoising x and y.
  const step = Math.max(1, Math.ceil(points.length / MAX_VERTICES));
  const indexes: number[] = [];
  for (let i = 0; i < points.length; i += step) indexes.push(i);
  if (indexes[indexes.length - 1] !== points.length - 1) indexes.push(points.length - 1);
  const line = (value: (p: Point) => number) =>
    indexes
      .map((i, k) => `${k === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${y(value(points[i] as Point)).toFixed(1)}`)
      .join('');
  const balancePath = line((p) => p.balance);
  const areaPath = `${balancePath}L${x(points.length - 1).toFixed(1)},${y(0).toFixed(1)}L${x(0).toFixed(1)},${y(0).toFixed(1)}Z`;
  const paidPath = line((p) => p.paid);

  const compact = useMemo(() => compactFormatter(currency), [currency]);
  const xTicks = useMemo(() => {
    const count = Math.min(points.length, width < 480 ? 3 : 5);
    if (count < 2) return [0];
    return Array.from({ length: count }, (_, k) => Math.round((k * (points.length - 1)) / (count - 1)));
  }, [points.length, width]);

  const pick = (clientX: number, element: Element) => {
    const rect = element.getBoundingClientRect();
    const ratio =
      (clientX - rect.left - (MARGIN.left / width) * rect.width) / ((innerWidth / width) * rect.width);
    setActive(Math.min(points.length - 1, Math.max(0, Math.round(ratio * span))));
  };
  const onPointer = (event: PointerEvent<SVGSVGElement>) => pick(event.clientX, event.currentTarget);
  const onKey = (event: KeyboardEvent<HTMLElement>) => {
    const current = active ?? 0;
    const big = Math.max(1, Math.round(points.length / 10));
    const next =
      event.key === 'ArrowRight'
        ? current + 1
        : event.key === 'ArrowLeft'
          ? current - 1
          : event.key === 'PageUp'
            ? current + big
            : event.key === 'PageDown'
              ? current - big
              : event.key === 'Home'
                ? 0
                : event.key === 'End'
                  ? points.length - 1
                  : null;
    if (next === null) return;
    event.preventDefault();
    setActive(Math.min(points.length - 1, Math.max(0, next)));
  };

  const point = active === null ? null : points[active];
  const summary = `Balance falls from ${money(principal, currency)} to ${money(last?.balance ?? 0, currency)} over ${
    rows.length
  } instalments, ending ${formatBusinessDate(last?.date ?? startDate)}; ${money(last?.paid ?? 0, currency)} paid in total.`;

  return (
    <div className="grid grid-cols-1 gap-3" data-testid="chart-balance">
      <div className="flex flex-wrap items-center gap-x-5 gap-y-1 text-muted-foreground text-xs">
        <span className="flex items-center gap-1.5">
          <span className="size-2.5 rounded-sm bg-primary" aria-hidden="true" />
          Balance owed
        </span>
        <span className="flex items-center gap-1.5">
          <span className="h-0.5 w-4 rounded bg-success" aria-hidden="true" />
          Paid so far
        </span>
      </div>
      <figure
        ref={containerRef}
        aria-labelledby={titleId}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the chart is explored with the arrow keys
        tabIndex={0}
        onKeyDown={onKey}
        onFocus={() => setActive((a) => a ?? 0)}
        onBlur={() => setActive(null)}
        className="relative rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <figcaption id={titleId} className="sr-only">
          Balance chart. {summary} Use the arrow keys to read each instalment.
        </figcaption>
        <svg
          width={width}
          height={HEIGHT}
          viewBox={`0 0 ${width} ${HEIGHT}`}
          className="block max-w-full touch-pan-y select-none"
          aria-hidden="true"
          onPointerMove={onPointer}
          onPointerDown={onPointer}
          onPointerLeave={() => setActive(null)}
        >
          {ticks.map((tick) => (
            <g key={tick}>
              <line
                x1={MARGIN.left}
                x2={width - MARGIN.right}
                y1={y(tick)}
                y2={y(tick)}
                className="stroke-border"
                strokeDasharray={tick === 0 ? undefined : '3 3'}
              />
              <text
                x={MARGIN.left - 8}
                y={y(tick)}
                dy="0.32em"
                textAnchor="end"
                className="fill-muted-foreground text-[11px]"
              >
                {compact(tick)}
              </text>
            </g>
          ))}
          {xTicks.map((i, k) => (
            <text
              key={i}
              x={x(i)}
              y={HEIGHT - 8}
              textAnchor={k === 0 ? 'start' : k === xTicks.length - 1 ? 'end' : 'middle'}
              className="fill-muted-foreground text-[11px]"
            >
              {formatBusinessDate(points[i]?.date ?? startDate)}
            </text>
          ))}
          <path d={areaPath} className="fill-primary/15" />
          <path d={balancePath} className="fill-none stroke-primary" strokeWidth={2} strokeLinejoin="round" />
          <path d={paidPath} className="fill-none stroke-success" strokeWidth={2} strokeLinejoin="round" />
          {point && active !== null && (
            <g>
              <line
                x1={x(active)}
                x2={x(active)}
                y1={MARGIN.top}
                y2={MARGIN.top + innerHeight}
                className="stroke-muted-foreground"
                strokeDasharray="2 2"
              />
              <circle
                cx={x(active)}
                cy={y(point.balance)}
                r={4}
                className="fill-primary stroke-card"
                strokeWidth={2}
              />
              <circle
                cx={x(active)}
                cy={y(point.paid)}
                r={4}
                className="fill-success stroke-card"
                strokeWidth={2}
              />
            </g>
          )}
        </svg>
        <div
          aria-live="polite"
          className="pointer-events-none absolute top-2 right-4 rounded-md border bg-popover/95 px-2.5 py-1.5 text-popover-foreground text-xs shadow-sm empty:hidden"
          data-testid="text-chart-readout"
        >
          {point && (
            <>
              <p className="font-medium">
                {point.n === 0 ? 'Start' : `Instalment ${point.n}`} · {formatBusinessDate(point.date)}
              </p>
              <p className="tabular-nums">Balance owed {money(point.balance, currency)}</p>
              <p className="tabular-nums">Paid so far {money(point.paid, currency)}</p>
            </>
          )}
        </div>
      </figure>
    </div>
  );
}

/** About `count` round tick values from 0 to at least `max` (1, 2, 2.5 or 5 times a power of ten). */
export function niceTicks(max: number, count: number): number[] {
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = Math.max(1, ([1, 2, 2.5, 5, 10].find((f) => f * power >= raw) ?? 10) * power);
  const ticks: number[] = [];
  for (let v = 0; v < max + step; v += step) {
    ticks.push(Math.round(v));
    if (v >= max) break;
  }
  return ticks;
}

/** Axis labels in major units, compact ("$1.3K", "KES 150K"); display only. */
function compactFormatter(currency: string): (minor: number) => string {
  const scale = 10 ** minorUnitDigits(currency);
  const format = new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency,
    notation: 'compact',
    maximumFractionDigits: 1,
  });
  return (minor) => format.format(minor / scale);
}
