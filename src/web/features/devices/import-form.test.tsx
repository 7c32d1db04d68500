import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DeviceImportResult } from '@/contracts/devices';
import { ApiError } from '@/web/lib/queryClient';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { ImportForm, rowErrorsOf } from './import-form';
import { stubApi } from './test-api';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const csv = () =>
  new File(
    ['serial_number,model_sku,imei\nSN-1,TEC-SP20,490154203237518\nSN-2,TEC-SP20,123\n'],
    'units.csv',
    {
      type: 'text/csv',
    },
  );

const WITH_ERRORS: DeviceImportResult = {
  dryRun: true,
  rows: 2,
  valid: 1,
  errors: [
    { row: 3, field: 'imei', message: 'IMEI must be 15 digits' },
    { row: 3, field: 'model_sku', message: 'No device model has the SKU NOPE' },
  ],
  imported: 0,
  preview: [
    { row: 2, serialNumber: 'SN-1', imei: '490154203237518', model: 'Tecno Spark 20', controlKind: 'none' },
  ],
};

const CLEAN: DeviceImportResult = { ...WITH_ERRORS, valid: 2, errors: [] };

/** The multipart fields the form sent. */
async function sentFields(body: unknown): Promise<Record<string, string>> {
  const form = body as FormData;
  const file = form.get('file') as File;
  const text = await new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.readAsText(file);
  });
  return { dryRun: String(form.get('dryRun')), file: text };
}

describe('ImportForm', () => {
  it('checks the file first and lists every problem by row and field; nothing can be imported', async () => {
    const calls = stubApi({ 'POST /api/devices/import': () => jsonResponse(WITH_ERRORS) });
    renderWithProviders(<ImportForm onDone={vi.fn()} />);
    await userEvent.upload(screen.getByTestId('input-import-file'), csv());
    const table = await screen.findByTestId('table-import-errors');
    expect(await sentFields(calls[0]?.body)).toMatchObject({ dryRun: 'true' });
    const rows = within(table).getAllByTestId('row-import-error-3');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('3');
    expect(rows[0]).toHaveTextContent('imei');
    expect(rows[0]).toHaveTextContent('IMEI must be 15 digits');
    expect(rows[1]).toHaveTextContent('No device model has the SKU NOPE');
    expect(screen.getByTestId('text-import-summary')).toHaveTextContent(
      '2 rows in the file, 1 ready to import, 2 problems to fix. Nothing is imported until the file is right.',
    );
    expect(screen.getByTestId('button-import-run')).toBeDisabled();
  });

  it('imports a clean file and says how many units came in', async () => {
    const calls = stubApi({
      'POST /api/devices/import': async (call) =>
        (await sentFields(call.body)).dryRun === 'true'
          ? jsonResponse(CLEAN)
          : jsonResponse({ ...CLEAN, dryRun: false, imported: 2 }, 201),
    });
    const onDone = vi.fn();
    renderWithProviders(<ImportForm onDone={onDone} />);
    await userEvent.upload(screen.getByTestId('input-import-file'), csv());
    const run = await screen.findByRole('button', { name: 'Import 2 units' });
    expect(screen.getByTestId('table-import-preview')).toHaveTextContent('SN-1');
    await userEvent.click(run);
    expect(await screen.findByTestId('text-import-imported')).toHaveTextContent(
      '2 units imported into stock.',
    );
    expect(await sentFields(calls.at(-1)?.body)).toMatchObject({ dryRun: 'false' });
    await userEvent.click(screen.getByTestId('button-import-close'));
    expect(onDone).toHaveBeenCalled();
  });

  it('shows the rows of a refused import (422: nothing imported)', async () => {
    stubApi({
      'POST /api/devices/import': async (call) =>
        (await sentFields(call.body)).dryRun === 'true'
          ? jsonResponse(CLEAN)
          : jsonResponse(
              {
                message: '1 problem(s) in 1 row(s); nothing was imported.',
                code: 'IMPORT_INVALID',
                errors: [
                  {
                    field: 'row 2: serial_number',
                    message: 'Serial number SN-1 is already in the inventory',
                  },
                ],
              },
              422,
            ),
    });
    renderWithProviders(<ImportForm onDone={vi.fn()} />);
    await userEvent.upload(screen.getByTestId('input-import-file'), csv());
    await userEvent.click(await screen.findByRole('button', { name: 'Import 2 units' }));
    expect(await screen.findByTestId('alert-form-error')).toHaveTextContent('nothing was imported');
    const row = await screen.findByTestId('row-import-error-2');
    expect(row).toHaveTextContent('serial_number');
    expect(row).toHaveTextContent('Serial number SN-1 is already in the inventory');
  });

  it('refuses a file over 10 MB before sending it', async () => {
    const calls = stubApi({});
    renderWithProviders(<ImportForm onDone={vi.fn()} />);
    const big = csv();
    Object.defineProperty(big, 'size', { value: 11 * 1024 * 1024 });
    await userEvent.upload(screen.getByTestId('input-import-file'), big);
    await waitFor(() =>
      expect(screen.getByTestId('input-import-file')).toHaveAttribute('aria-invalid', 'true'),
    );
    expect(
      screen.getByText('The file is larger than 10 MB; split it into several imports'),
    ).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});

describe('rowErrorsOf', () => {
  it('turns "row N: field" names back into rows', () => {
    const error = new ApiError(
      422,
      JSON.stringify({
        message: 'x',
        errors: [
          { field: 'row 7: imei', message: 'IMEI check digit is wrong' },
          { field: 'csv', message: 'The file is empty' },
        ],
      }),
    );
    expect(rowErrorsOf(error)).toEqual([
      { row: 7, field: 'imei', message: 'IMEI check digit is wrong' },
      { row: 0, field: 'csv', message: 'The file is empty' },
    ]);
  });
});
