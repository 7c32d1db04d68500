import type { Components } from '../../../contracts/recoveries';
import { type BookReceivables, RECEIVABLE_ACCOUNTS } from '../ledger/receivables';
import { ACCOUNTS, type PostingLine } from '../ledger/service';

const PARTS = ['principal', 'interest', 'fees', 'penalties'] as const;

export const withTotal = (parts: BookReceivables): Components => ({
  ...parts,
  total: parts.principal + parts.interest + parts.fees + parts.penalties,
});

/**
 * A recovered device's value set against the contract's receivables on the books: principal
 * first (the device secured it), then interest, fees and penalties. What the value does not
 * cover is left; what it exceeds the receivables by is the customer's (a surplus, held as their
 * credit until refunded).
 */
export function applyRecovery(
  book: BookReceivables,
  value: number,
): { applied: BookReceivables; left: BookReceivables; surplus: number } {
  let rest = value;
  const applied = { principal: 0, interest: 0, fees: 0, penalties: 0 };
  const left = { ...book };
  for (const part of PARTS) {
    const take = Math.min(rest, book[part]);
    applied[part] = take;
    left[part] = book[part] - take;
    rest -= take;
  }
  return { applied, left, surplus: rest };
}

type Parties = { contractId: string; customerId: string };

/** Credits out of each receivable account, by component (zero lines are dropped by `post`). */
function creditReceivables(parts: BookReceivables, parties: Parties, memo: string): PostingLine[] {
  return PARTS.map((part) => ({ account: RECEIVABLE_ACCOUNTS[part], credit: parts[part], ...parties, memo }));
}

/**
 * The journal lines of a write-off: the credit-loss expense against each receivable component
 * still on the books. Balanced by construction.
 */
export function writeOffLines(left: BookReceivables, parties: Parties): PostingLine[] {
  const total = withTotal(left).total;
  return [
    { account: ACCOUNTS.creditLosses, debit: total, ...parties, memo: 'balance written off' },
    ...creditReceivables(left, parties, 'written off'),
  ];
}

/**
 * The journal lines of a repossession's recovery: the unit into inventory at its recovery value,
 * against the receivables it covers (and the customer's credit for any surplus); with `writeOff`,
 * the rest of the receivables written off too.
 */
export function recoveryLines(
  book: BookReceivables,
  value: number,
  writeOff: boolean,
  parties: Parties,
): { lines: PostingLine[]; left: BookReceivables; applied: BookReceivables; surplus: number } {
  const { applied, left, surplus } = applyRecovery(book, value);
  const who = parties;
  const lines: PostingLine[] = [
    { account: ACCOUNTS.inventory, debit: value, ...who, memo: 'recovered device back in stock' },
    ...creditReceivables(applied, who, 'covered by the recovered device'),
    { account: ACCOUNTS.customerCredit, credit: surplus, ...who, memo: 'recovery value beyond the balance' },
  ];
  if (writeOff) lines.push(...writeOffLines(left, who));
  return { lines, left, applied, surplus };
}
