import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/web/test/render';
import { type Column, DataTable } from './data-table';

interface Unit {
  id: string;
  serial: string;
}

const units: Unit[] = [{ id: 'u1', serial: 'SN-1' }];
const select: Column<Unit> = {
  key: 'select',
  header: 'Select',
  cell: (unit) => <input type="checkbox" aria-label={`Select ${unit.serial}`} />,
};
const serial: Column<Unit> = { key: 'serial', header: 'Serial number', cell: (unit) => unit.serial };

function renderTable(columns: Column<Unit>[]) {
  renderWithProviders(
    <DataTable<Unit>
      label="Units"
      columns={columns}
      rows={units}
      rowKey={(unit) => unit.id}
      loading={false}
      rowHref={(unit) => `/devices/${unit.id}`}
      onOpen={vi.fn()}
      empty={null}
      testId="units"
    />,
  );
  return within(screen.getByTestId('row-units-u1')).getAllByRole('cell');
}

describe('DataTable row links', () => {
  it('puts the row’s link in the first cell by default', () => {
    const [first] = renderTable([serial, select]);
    expect(within(first as HTMLElement).getByRole('link', { name: 'SN-1' })).toHaveAttribute(
      'href',
      '/devices/u1',
    );
  });

  it('puts it in the column marked as the link, so a checkbox can come first', () => {
    const [first, second] = renderTable([select, { ...serial, link: true }]);
    expect(within(first as HTMLElement).queryByRole('link')).toBeNull();
    expect(within(first as HTMLElement).getByRole('checkbox', { name: 'Select SN-1' })).toBeInTheDocument();
    expect(within(second as HTMLElement).getByRole('link', { name: 'SN-1' })).toHaveAttribute(
      'href',
      '/devices/u1',
    );
  });
});
