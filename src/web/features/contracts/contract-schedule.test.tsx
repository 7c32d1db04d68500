import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Contract } from '@/contracts/contracts';
import { ContractSchedule, scheduleWindow } from './contract-schedule';

type Row = Contract['schedule'][number];
type Status = Row['status'];

const statuses = (paid: number, overdue: number, total: number): Status[] =>
  Array.from({ length: total }, (_, i) => (i < paid ? 'paid' : i < paid + overdue ? 'overdue' : 'upcoming'));

const numbers = (rows: readonly { n: number }[]) => rows.map((row) => row.n);
const rowsOf = (list: Status[]) => list.map((status, i) => ({ n: i + 1, status }));

describe('scheduleWindow', () => {
  it('starts two instalments before the oldest one not yet paid', () => {
    const part = scheduleWindow(rowsOf(statuses(48, 0, 78)));
    expect(part.start).toBe(46);
    expect(numbers(part.rows)).toEqual([47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58]);
  });

  it('keeps every overdue instalment from the oldest, and the first ones of a young contract', () => {
    expect(numbers(scheduleWindow(rowsOf(statuses(10, 3, 52))).rows)[0]).toBe(9);
    expect(numbers(scheduleWindow(rowsOf(statuses(1, 0, 52))).rows)[0]).toBe(1);
    expect(numbers(scheduleWindow(rowsOf(statuses(0, 0, 52))).rows)[0]).toBe(1);
  });

  it('shows the last ones near the end, and of a schedule paid in full', () => {
    expect(numbers(scheduleWindow(rowsOf(statuses(75, 0, 78))).rows)).toEqual(
      Array.from({ length: 12 }, (_, i) => 67 + i),
    );
    expect(scheduleWindow(rowsOf(statuses(78, 0, 78))).start).toBe(66);
  });

  it('shows a short schedule whole', () => {
    const rows = rowsOf(statuses(2, 0, 10));
    expect(scheduleWindow(rows)).toEqual({ start: 0, rows });
  });
});

describe('ContractSchedule', () => {
  const row = (n: number, status: Status): Row => ({
    n,
    dueDate: `2026-${String(Math.ceil(n / 4)).padStart(2, '0')}-0${(n % 4) + 1}`,
    principal: 10_000,
    interest: 1_000,
    serviceFee: 0,
    penalty: 0,
    total: 11_000,
    paid: status === 'paid' ? 11_000 : 0,
    balance: 10_000 * (40 - n),
    status,
  });

  it('opens a long schedule at the oldest open instalment, and shows every one on request', async () => {
    const user = userEvent.setup();
    render(
      <ContractSchedule rows={statuses(30, 1, 40).map((status, i) => row(i + 1, status))} currency="USD" />,
    );
    const table = screen.getByTestId('table-contract-schedule');
    expect(within(table).queryByTestId('row-instalment-28')).toBeNull();
    expect(within(table).getByTestId('row-instalment-29')).toBeInTheDocument();
    expect(within(table).getByTestId('row-instalment-31')).toHaveTextContent('Overdue');
    expect(within(table).getByTestId('row-instalment-40')).toBeInTheDocument();
    expect(screen.getByTestId('text-schedule-window')).toHaveTextContent(
      'Instalments #29 to #40 of 40, from the oldest not yet paid',
    );
    await user.click(screen.getByTestId('button-toggle-schedule'));
    expect(within(table).getByTestId('row-instalment-1')).toBeInTheDocument();
    expect(screen.getByTestId('button-toggle-schedule')).toHaveTextContent('Show fewer');
    expect(screen.queryByTestId('text-schedule-window')).toBeNull();
  });
});
