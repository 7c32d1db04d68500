/**
 * Everything the calculator needs once there is something to compute: the finance engine (with
 * decimal.js, about 20 KB gzipped), the results, the schedule, the chart loader and the printable
 * quote. calculator.tsx loads this chunk when a quote link is opened or the visitor starts on the
 * form, so the first load of /calculator carries only the form.
 */
export { isKnownCurrency } from '@/domain';
export { money } from '@/web/lib/money';
export { CalculatorResults } from './calculator-results';
export { LazyBalanceChart } from './lazy-balance-chart';
export { evaluate, quoteFigures } from './model';
export { QuoteSheet } from './quote-sheet';
export { ScheduleTable } from './schedule-table';
