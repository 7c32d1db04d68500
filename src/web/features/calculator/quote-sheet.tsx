import type { Schedule } from '@/domain';
import { formatBusinessDate, formatPercent } from '@/web/lib/format';
import { money } from '@/web/lib/money';
import { aprDisclosure, paymentPattern } from './calculator-results';
import { type CalculatorInputs, FREQUENCY_OPTIONS, METHOD_OPTIONS, todayBusinessDate } from './inputs';
import type { QuoteFigures } from './model';

interface QuoteSheetProps {
  organisation: string;
  currency: string;
  inputs: CalculatorInputs;
  figures: QuoteFigures;
  schedule: Schedule;
  multiple: number;
  fee: number;
  link: string;
}

/**
 * The printable quote: organisation, date, inputs, key figures and the whole schedule, in black
 * on white. Rendered only while printing (the page hides everything else in print).
 */
export function QuoteSheet({
  organisation,
  currency,
  inputs,
  figures,
  schedule,
  multiple,
  fee,
  link,
}: QuoteSheetProps) {
  const m = (minor: number) => money(minor, currency);
  const term = schedule.rows.length;
  const frequency = FREQUENCY_OPTIONS.find((o) => o.value === inputs.frequency)?.label ?? inputs.frequency;
  const method = METHOD_OPTIONS.find((o) => o.value === inputs.method)?.label ?? inputs.method;
  const terms: Array<[string, string]> = [
    ['Cash price', m(figures.price)],
    ['Deposit', m(figures.deposit)],
    ['Amount financed', m(figures.principal)],
    ['Frequency', frequency],
    ['Term', `${term.toLocaleString('en-US')} instalments`],
    ['APR', formatPercent(Number(inputs.apr), 4)],
    ['Interest method', method],
    ['Instalment multiple', multiple > 0 ? m(multiple) : 'None'],
    ['Service fee per instalment', m(fee)],
    ['Start date', formatBusinessDate(inputs.start)],
  ];
  const keyFigures: Array<[string, string]> = [
    ['Regular payment', m(figures.regularPayment)],
    ['Last payment', m(figures.lastPayment)],
    ['Total interest', m(figures.totalInterest)],
    ['Total service fees', m(figures.totalServiceFees)],
    ['Total of payments', m(figures.totalOfPayments)],
    ['Total cost with deposit', m(figures.totalCost)],
    ['Cost of credit', m(figures.costOfCredit)],
  ];
  return (
    <article
      className="quote-sheet hidden text-black print:block"
      data-testid="sheet-quote"
      aria-label="Printable quote"
    >
      <header className="flex items-start justify-between gap-6 border-black border-b-2 pb-3">
        <div>
          <p className="font-semibold text-xl" data-testid="text-quote-organisation">
            {organisation}
          </p>
          <h1 className="font-medium text-base">Device financing quote</h1>
        </div>
        <p className="text-right text-sm">
          Prepared {formatBusinessDate(todayBusinessDate())}
          <br />
          <span className="text-xs">Amounts in {currency}</span>
        </p>
      </header>

      <section className="mt-4 grid grid-cols-2 gap-8">
        <div>
          <h2 className="mb-1.5 font-semibold text-sm uppercase tracking-wide">Terms</h2>
          <Pairs pairs={terms} />
        </div>
        <div>
          <h2 className="mb-1.5 font-semibold text-sm uppercase tracking-wide">Key figures</h2>
          <Pairs pairs={keyFigures} />
          <p className="mt-2 text-xs">{paymentPattern(figures, term, inputs.frequency, currency)}.</p>
        </div>
      </section>

      <p className="mt-4 border border-black px-3 py-2 text-xs leading-relaxed">
        {aprDisclosure(figures, inputs.apr, inputs.method, inputs.frequency, currency)}
      </p>

      <section className="mt-4">
        <h2 className="mb-1.5 font-semibold text-sm uppercase tracking-wide">Repayment schedule</h2>
        <table className="w-full border-collapse text-xs tabular-nums">
          <thead>
            <tr className="border-black border-b">
              <th className="py-1 pr-2 text-left">No.</th>
              <th className="py-1 pr-2 text-left">Due date</th>
              <th className="py-1 pr-2 text-right">Principal</th>
              <th className="py-1 pr-2 text-right">Interest</th>
              <th className="py-1 pr-2 text-right">Service fee</th>
              <th className="py-1 pr-2 text-right">Total</th>
              <th className="py-1 text-right">Balance</th>
            </tr>
          </thead>
          <tbody>
            {schedule.rows.map((row) => (
              <tr key={row.n} className="break-inside-avoid border-gray-300 border-b">
                <td className="py-0.5 pr-2">{row.n}</td>
                <td className="py-0.5 pr-2">{formatBusinessDate(row.dueDate)}</td>
                <td className="py-0.5 pr-2 text-right">{m(row.principal)}</td>
                <td className="py-0.5 pr-2 text-right">{m(row.interest)}</td>
                <td className="py-0.5 pr-2 text-right">{m(row.serviceFee)}</td>
                <td className="py-0.5 pr-2 text-right">{m(row.total)}</td>
                <td className="py-0.5 text-right">{m(row.balance)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr className="border-black border-t font-semibold">
              <td className="py-1 pr-2" colSpan={2}>
                Total
              </td>
              <td className="py-1 pr-2 text-right">{m(schedule.totals.totalPrincipal)}</td>
              <td className="py-1 pr-2 text-right">{m(schedule.totals.totalInterest)}</td>
              <td className="py-1 pr-2 text-right">{m(schedule.totals.totalServiceFees)}</td>
              <td className="py-1 pr-2 text-right">{m(schedule.totals.totalPayable)}</td>
              <td />
            </tr>
          </tfoot>
        </table>
      </section>

      <footer className="mt-4 text-[10px] leading-snug">
        An estimate for information, not an offer of credit: the contract's schedule is fixed when it is
        signed. Due dates assume the contract starts on {formatBusinessDate(inputs.start)}. This quote:{' '}
        <span className="break-all">{link}</span>
      </footer>
    </article>
  );
}

function Pairs({ pairs }: { pairs: Array<[string, string]> }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-0.5 text-sm">
      {pairs.map(([label, value]) => (
        <div key={label} className="contents">
          <dt>{label}</dt>
          <dd className="text-right font-medium tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
