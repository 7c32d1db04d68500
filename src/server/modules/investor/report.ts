import type { InvestorCashFlows, InvestorScope, InvestorSummary } from '../../../contracts/investor';
import { addDays, formatMoney, minorUnitDigits } from '../../../domain';
import type { AppContext } from '../../context';
import { exceljs } from '../../exceljs';
import { organisation } from '../../organisation';
import { MARGIN, PdfLayout, RIGHT } from '../payments/pdf-layout';
import { cashFlows, fundOf, fundTotals, summaryOf } from './figures';

/**
 * The investor report for a period (issue 16 §3): the position at the period's end, what was
 * disbursed and collected in it, and its months. Aggregates only, like every investor answer.
 */
export interface InvestorReport {
  organisation: string;
  label: string;
  scope: InvestorScope;
  from: string;
  to: string;
  /** The position at the last closed date on or before `to`. */
  end: InvestorSummary;
  period: { contracts: number; disbursed: number; collected: number };
  months: InvestorCashFlows['months'];
}

export async function investorReport(
  ctx: AppContext,
  session: { label: string; scope: InvestorScope },
  from: string,
  to: string,
): Promise<InvestorReport> {
  const org = await organisation(ctx, ctx.db);
  const fund = fundOf(session.scope);
  const [end, start, flows] = await Promise.all([
    fundTotals(ctx.db, fund, to),
    fundTotals(ctx.db, fund, addDays(from, -1)),
    cashFlows(ctx, session.scope, { from, to }),
  ]);
  return {
    organisation: org.name,
    label: session.label,
    scope: session.scope,
    from,
    to,
    end: summaryOf(org.currency, end),
    period: {
      contracts: end.contracts - start.contracts,
      disbursed: end.disbursed - start.disbursed,
      collected: end.collected - start.collected,
    },
    months: flows.months,
  };
}

const percent = (ratio: number) => `${(ratio * 100).toFixed(2)}%`;
const scopeText = (scope: InvestorScope) => (scope.kind === 'tag' ? `Fund ${scope.tag}` : 'Whole portfolio');

/** The report's lines, label and value, shared by the PDF and the workbook. */
function positionRows(report: InvestorReport, money: (minor: number) => string): [string, string][] {
  const e = report.end;
  return [
    ['Disbursed (to date)', money(e.disbursed)],
    ['Contracts financed (to date)', String(e.contracts)],
    ['Collected (to date)', money(e.collected)],
    ['Outstanding principal', money(e.outstanding)],
    ['Live contracts', String(e.liveContracts)],
    ['PAR30', `${percent(e.par30)} (${money(e.par30Amount)})`],
    ['PAR90', `${percent(e.par90)} (${money(e.par90Amount)})`],
    ['Collection rate', percent(e.collectionRate)],
    ['Yield (interest and fees collected / disbursed)', percent(e.yield)],
    ['In default', `${e.defaults.count} (${money(e.defaults.principal)})`],
    ['Written off (to date)', `${e.defaults.writtenOffCount} (${money(e.defaults.writtenOffPrincipal)})`],
    [
      'Repossessed (to date)',
      `${e.recoveries.repossessedCount} (${money(e.recoveries.repossessedPrincipal)})`,
    ],
  ];
}

export async function investorReportPdf(report: InvestorReport): Promise<Uint8Array> {
  const currency = report.end.currency;
  const money = (minor: number) => formatMoney(minor, currency, { display: 'code' });
  const layout = await PdfLayout.create(
    `Investor report ${report.from} to ${report.to}`,
    report.organisation,
  );
  layout.text(report.organisation, MARGIN, { size: 16, bold: true });
  layout.y -= 20;
  layout.text('Investor report', MARGIN, { size: 13, bold: true });
  layout.rightText(`${report.from} to ${report.to}`, RIGHT, { size: 11 });
  layout.y -= 16;
  layout.text(`${report.label} - ${scopeText(report.scope)}`, MARGIN, { muted: true });
  layout.y -= 14;
  layout.text(
    report.end.asOf ? `Position at the close of ${report.end.asOf}` : 'No business date closed yet',
    MARGIN,
    { muted: true },
  );
  layout.y -= 24;
  layout.pairs('In the period', [
    ['Contracts financed', String(report.period.contracts)],
    ['Disbursed', money(report.period.disbursed)],
    ['Collected', money(report.period.collected)],
  ]);
  layout.pairs('Position at the end of the period', positionRows(report, money));
  layout.heading('Cash flows by month');
  layout.table(
    [
      { label: 'Month', at: MARGIN, left: true },
      { label: 'Disbursed', at: 380 },
      { label: 'Collected', at: RIGHT },
    ],
    report.months.map((m) => ({ cells: [m.month, money(m.disbursed), money(m.collected)] })),
  );
  layout.text('Aggregates only: no customer or contract is named in this report.', MARGIN, {
    size: 8,
    muted: true,
  });
  return layout.save(`${report.organisation} - investor report ${report.from} to ${report.to}`);
}

export async function investorReportXlsx(report: InvestorReport): Promise<Buffer> {
  const currency = report.end.currency;
  const digits = minorUnitDigits(currency);
  // Amounts as numbers in major units, so the sheet sums them.
  const major = (minor: number) => minor / 10 ** digits;
  const format = digits ? `#,##0.${'0'.repeat(digits)}` : '#,##0';
  const workbook = new (await exceljs()).Workbook();
  workbook.creator = report.organisation;
  const summary = workbook.addWorksheet('Summary');
  summary.columns = [
    { header: 'Figure', key: 'figure', width: 44 },
    { header: `Value (${currency})`, key: 'value', width: 22, style: { numFmt: format } },
  ];
  const e = report.end;
  // A count or a ratio says so; money and text take the column's format.
  const COUNT = '0';
  const RATIO = '0.00%';
  const rows: [figure: string, value: number | string, numFmt?: string][] = [
    ['Report', `${report.label} - ${scopeText(report.scope)}`],
    ['Period', `${report.from} to ${report.to}`],
    ['Position at the close of', e.asOf ?? 'none'],
    ['Contracts financed in the period', report.period.contracts, COUNT],
    ['Disbursed in the period', major(report.period.disbursed)],
    ['Collected in the period', major(report.period.collected)],
    ['Disbursed (to date)', major(e.disbursed)],
    ['Contracts financed (to date)', e.contracts, COUNT],
    ['Collected (to date)', major(e.collected)],
    ['Outstanding principal', major(e.outstanding)],
    ['Live contracts', e.liveContracts, COUNT],
    ['PAR30 amount', major(e.par30Amount)],
    ['PAR30 ratio', e.par30, RATIO],
    ['PAR90 amount', major(e.par90Amount)],
    ['PAR90 ratio', e.par90, RATIO],
    ['Collection rate', e.collectionRate, RATIO],
    ['Yield (interest and fees collected / disbursed)', e.yield, RATIO],
    ['Contracts in default', e.defaults.count, COUNT],
    ['Principal in default', major(e.defaults.principal)],
    ['Contracts written off (to date)', e.defaults.writtenOffCount, COUNT],
    ['Principal written off (to date)', major(e.defaults.writtenOffPrincipal)],
    ['Units repossessed (to date)', e.recoveries.repossessedCount, COUNT],
    ['Principal left by repossessed contracts (to date)', major(e.recoveries.repossessedPrincipal)],
  ];
  for (const [figure, value, numFmt] of rows) {
    const row = summary.addRow({ figure, value });
    if (numFmt) row.getCell('value').numFmt = numFmt;
  }
  const months = workbook.addWorksheet('Cash flows');
  months.columns = [
    { header: 'Month', key: 'month', width: 12 },
    { header: `Disbursed (${currency})`, key: 'disbursed', width: 20, style: { numFmt: format } },
    { header: `Collected (${currency})`, key: 'collected', width: 20, style: { numFmt: format } },
  ];
  for (const m of report.months)
    months.addRow({ month: m.month, disbursed: major(m.disbursed), collected: major(m.collected) });
  for (const sheet of [summary, months]) sheet.getRow(1).font = { bold: true };
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
