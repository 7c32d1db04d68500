import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { investorEndpoints } from '@/contracts/investor';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Skeleton } from '@/web/components/ui/skeleton';
import { api } from '@/web/lib/api';
import { money } from '@/web/lib/money';
import { queryKeys } from '@/web/lib/query-keys';

/**
 * The portal's charts (loaded on demand, plain SVG like the dashboard's sparklines): monthly cash
 * flows, vintage curves and the PAR trend. Each chart has a visually hidden table of its numbers
 * for screen readers.
 */

const W = 640;
const H = 240;
const PAD = { top: 12, right: 12, bottom: 36, left: 12 };
const innerW = W - PAD.left - PAD.right;
const innerH = H - PAD.top - PAD.bottom;
const COLOURS = ['var(--color-primary)', '#0ea5e9', '#f59e0b', '#10b981', '#ef4444', '#8b5cf6'];

function ChartCard({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

const Loading = () => <Skeleton className="h-[180px] w-full" />;
const Empty = () => (
  <p className="text-muted-foreground text-sm">
    Nothing to chart yet: the figures start with the first closed business date that has contracts.
  </p>
);

/** The charts' drawing area, described for screen readers by `label`. */
function ChartSvg({ label, children }: { label: string; children: ReactNode }) {
  return (
    <svg viewBox={`0 0 ${W} ${H}`} className="h-auto w-full" role="img" aria-label={label}>
      {children}
    </svg>
  );
}

/** The x axis' two end labels, under the plot. */
function AxisEnds({ start, end }: { start: ReactNode; end: ReactNode }) {
  return (
    <>
      <text x={PAD.left} y={H - 8} fontSize={22} className="fill-muted-foreground">
        {start}
      </text>
      <text x={W - PAD.right} y={H - 8} fontSize={22} textAnchor="end" className="fill-muted-foreground">
        {end}
      </text>
    </>
  );
}

function CashFlowChart() {
  const q = useQuery({
    queryKey: queryKeys.investor.cashFlows(),
    queryFn: () => api(investorEndpoints.cashFlows),
  });
  if (!q.data) return <Loading />;
  const { months, currency } = q.data;
  if (!months.length) return <Empty />;
  const max = Math.max(1, ...months.flatMap((m) => [m.disbursed, m.collected]));
  const slot = innerW / months.length;
  const bar = Math.max(2, slot * 0.38);
  const y = (v: number) => PAD.top + innerH - (v / max) * innerH;
  const labelEvery = Math.ceil(months.length / 6);
  return (
    <figure data-testid="chart-cash-flows">
      <ChartSvg label="Disbursed and collected per month">
        {months.map((m, i) => {
          const x = PAD.left + i * slot + slot * 0.1;
          return (
            <g key={m.month}>
              <rect
                x={x}
                y={y(m.disbursed)}
                width={bar}
                height={PAD.top + innerH - y(m.disbursed)}
                fill={COLOURS[1]}
              />
              <rect
                x={x + bar}
                y={y(m.collected)}
                width={bar}
                height={PAD.top + innerH - y(m.collected)}
                fill={COLOURS[3]}
              />
              {/* Labels from the right end, their centres kept clear of the edges (a month is ~80 wide). */}
              {(months.length - 1 - i) % labelEvery === 0 && (
                <text
                  x={Math.min(W - 44, Math.max(44, x + bar))}
                  y={H - 8}
                  fontSize={22}
                  textAnchor="middle"
                  className="fill-muted-foreground"
                >
                  {m.month}
                </text>
              )}
            </g>
          );
        })}
      </ChartSvg>
      <figcaption className="flex gap-4 text-muted-foreground text-xs">
        <Legend colour={COLOURS[1]} label="Disbursed" />
        <Legend colour={COLOURS[3]} label="Collected" />
        <span>Largest month: {money(max, currency)}</span>
      </figcaption>
      {/* A table sized to its text even when clipped: the wrapper keeps it off the layout (no sideways scroll). */}
      <div className="sr-only">
        <table>
          <caption>Cash flows by month</caption>
          <tbody>
            {months.map((m) => (
              <tr key={m.month}>
                <th scope="row">{m.month}</th>
                <td>Disbursed {money(m.disbursed, currency)}</td>
                <td>Collected {money(m.collected, currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}

function Legend({ colour, label }: { colour: string | undefined; label: string }) {
  return (
    <span className="inline-flex items-center gap-1">
      <span className="inline-block size-2.5 rounded-sm" style={{ background: colour }} aria-hidden="true" />
      {label}
    </span>
  );
}

/** A line through (x 0..1, y 0..top) points. */
function Line({
  points,
  top,
  colour,
}: {
  points: readonly { x: number; y: number }[];
  top: number;
  colour: string | undefined;
}) {
  const d = points
    .map(
      (p, i) =>
        `${i ? 'L' : 'M'}${(PAD.left + p.x * innerW).toFixed(1)},${(PAD.top + innerH - (p.y / top) * innerH).toFixed(1)}`,
    )
    .join('');
  return <path d={d} fill="none" stroke={colour} strokeWidth={2} />;
}

function VintageChart() {
  const q = useQuery({
    queryKey: queryKeys.investor.vintages(),
    queryFn: () => api(investorEndpoints.vintages),
  });
  if (!q.data) return <Loading />;
  // The latest six vintages keep the lines readable on a phone.
  const vintages = q.data.vintages.slice(-6);
  if (!vintages.length) return <Empty />;
  const span = Math.max(1, ...vintages.flatMap((v) => v.points.map((p) => p.monthsOnBook)));
  const top = Math.max(0.1, ...vintages.flatMap((v) => v.points.map((p) => p.ratio)));
  return (
    <figure data-testid="chart-vintages">
      <ChartSvg label="Collected over disbursed by month on book, per start month">
        {vintages.map((v, i) => (
          <Line
            key={v.vintage}
            points={v.points.map((p) => ({ x: p.monthsOnBook / span, y: p.ratio }))}
            top={top}
            colour={COLOURS[i % COLOURS.length]}
          />
        ))}
        <AxisEnds start="month 0" end={`month ${span}`} />
      </ChartSvg>
      <figcaption className="flex flex-wrap gap-3 text-muted-foreground text-xs">
        {vintages.map((v, i) => (
          <Legend
            key={v.vintage}
            colour={COLOURS[i % COLOURS.length]}
            label={`${v.vintage} (${v.contracts})`}
          />
        ))}
        <span>Top of chart: {(top * 100).toFixed(0)}% collected</span>
      </figcaption>
    </figure>
  );
}

function ParTrendChart() {
  const q = useQuery({
    queryKey: queryKeys.investor.parTrend(),
    queryFn: () => api(investorEndpoints.parTrend),
  });
  if (!q.data) return <Loading />;
  const points = q.data.points;
  if (!points.length) return <Empty />;
  const top = Math.max(0.05, ...points.flatMap((p) => [p.par30, p.par90]));
  const x = (i: number) => (points.length > 1 ? i / (points.length - 1) : 0.5);
  return (
    <figure data-testid="chart-par-trend">
      <ChartSvg label="PAR30 and PAR90 by closed date">
        <Line points={points.map((p, i) => ({ x: x(i), y: p.par30 }))} top={top} colour={COLOURS[2]} />
        <Line points={points.map((p, i) => ({ x: x(i), y: p.par90 }))} top={top} colour={COLOURS[4]} />
        <AxisEnds start={points[0]?.date} end={points.at(-1)?.date} />
      </ChartSvg>
      <figcaption className="flex flex-wrap gap-3 text-muted-foreground text-xs">
        <Legend colour={COLOURS[2]} label="PAR30" />
        <Legend colour={COLOURS[4]} label="PAR90" />
        <span>Top of chart: {(top * 100).toFixed(1)}%</span>
      </figcaption>
    </figure>
  );
}

export default function InvestorCharts() {
  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
      <ChartCard title="Cash flows" description="Disbursed and collected per month.">
        <CashFlowChart />
      </ChartCard>
      <ChartCard title="Vintage curves" description="Collected over disbursed, by start month.">
        <VintageChart />
      </ChartCard>
      <ChartCard title="Portfolio at risk" description="PAR30 and PAR90 over the last closed dates.">
        <ParTrendChart />
      </ChartCard>
    </div>
  );
}
