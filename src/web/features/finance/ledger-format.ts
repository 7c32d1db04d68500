import type { Account } from '@/contracts/ledger';
import { formatMoney } from '@/domain';

export const ACCOUNT_TYPE_LABELS: Record<Account['type'], string> = {
  asset: 'Assets',
  liability: 'Liabilities',
  equity: 'Equity',
  income: 'Income',
  expense: 'Expenses',
};

/** Journal sources the app posts today; others are shown with their name made readable. */
export const SOURCE_LABELS: Record<string, string> = {
  deposit: 'Deposit',
  contract_activation: 'Contract activation',
  stock_receipt: 'Stock received',
  inventory_loss: 'Inventory loss',
  inventory_recovery: 'Lost unit found',
};

export function sourceLabel(source: string): string {
  return SOURCE_LABELS[source] ?? source.replaceAll('_', ' ').replace(/^\w/, (c) => c.toUpperCase());
}

/** An amount, or a dash for zero (ledgers leave the other side of a line blank). */
export function amountOrBlank(minor: number, currency: string): string {
  return minor === 0 ? '' : formatMoney(minor, currency);
}

/** A balance with its side: "$1,250.00 Dr", "$90.00 Cr", or "—" when nil. */
export function balanceWithSide(balance: number, currency: string): string {
  if (balance === 0) return '—';
  return `${formatMoney(Math.abs(balance), currency)} ${balance > 0 ? 'Dr' : 'Cr'}`;
}
