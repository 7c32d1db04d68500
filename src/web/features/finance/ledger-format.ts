import type { Account, JournalSource, TrialBalance } from '@/contracts/ledger';
import { formatMoney } from '@/domain';

export const ACCOUNT_TYPE_LABELS: Record<Account['type'], string> = {
  asset: 'Assets',
  liability: 'Liabilities',
  equity: 'Equity',
  income: 'Income',
  expense: 'Expenses',
};

/** Each kind of journal entry the app posts, as the journal and its source filter name it. */
export const SOURCE_LABELS: Record<JournalSource, string> = {
  deposit: 'Deposit',
  contract_activation: 'Contract activation',
  payment: 'Payment',
  'payment.reversal': 'Payment reversed',
  'payment.suspense': 'Payment held in suspense',
  'payment.match': 'Suspense payment matched',
  'payment.refund': 'Suspense payment refunded',
  late_fee: 'Late fees',
  interest_accrual: 'Interest accrued',
  repossession: 'Repossession',
  write_off: 'Write-off',
  stock_receipt: 'Stock received',
  inventory_loss: 'Inventory loss',
  inventory_recovery: 'Lost unit found',
};

export function sourceLabel(source: string): string {
  return (
    SOURCE_LABELS[source as JournalSource] ??
    source.replaceAll('_', ' ').replace(/^\w/, (c) => c.toUpperCase())
  );
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

/** The accounts /finance shows as balance cards: money held, what customers owe, what is owed to them. */
export const KEY_BALANCE_ACCOUNTS = [
  { code: '1000', label: 'Cash' },
  { code: '1010', label: 'Bank' },
  { code: '1020', label: 'Mobile money' },
  { code: '1100', label: 'Loans receivable' },
  { code: '2000', label: 'Customer credit' },
  { code: '2100', label: 'Suspense' },
] as const;

export interface KeyBalance {
  code: string;
  label: string;
  /** On the account's natural side: debit less credit for assets, credit less debit otherwise. */
  amount: number;
  /** The balance is on the other side than usual (an overdrawn bank, a debit on customer credit). */
  contrary: boolean;
}

/** The key balances of a trial balance, each on its natural side; an account it lacks is zero. */
export function keyBalances(rows: readonly TrialBalance['rows'][number][]): KeyBalance[] {
  const byCode = new Map(rows.map((row) => [row.code, row]));
  return KEY_BALANCE_ACCOUNTS.map(({ code, label }) => {
    const row = byCode.get(code);
    const debitNatural = !row || row.type === 'asset' || row.type === 'expense';
    const amount = row ? (debitNatural ? row.balance : -row.balance) : 0;
    return { code, label, amount, contrary: amount < 0 };
  });
}
