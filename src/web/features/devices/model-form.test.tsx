import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { ModelForm } from './model-form';
import { model, stubApi } from './test-api';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function messageOf(control: HTMLElement): string | null {
  const ids = control.getAttribute('aria-describedby')?.split(' ') ?? [];
  const error = ids.find((id) => id.endsWith('-error'));
  return error ? (document.getElementById(error)?.textContent ?? null) : null;
}

describe('ModelForm', () => {
  it('names every missing or malformed field', async () => {
    const calls = stubApi({});
    renderWithProviders(<ModelForm model={null} currency="USD" onSaved={vi.fn()} onCancel={vi.fn()} />);
    await userEvent.type(screen.getByTestId('input-model-cost-price'), '12.345');
    await userEvent.click(screen.getByTestId('button-save-model'));
    await waitFor(() => expect(messageOf(screen.getByTestId('input-model-make'))).toBe('Make is required'));
    expect(messageOf(screen.getByTestId('input-model-model'))).toBe('Model is required');
    expect(messageOf(screen.getByTestId('select-model-category'))).toBe('Choose a category');
    expect(messageOf(screen.getByTestId('select-model-control'))).toBe('Choose how the device is controlled');
    expect(messageOf(screen.getByTestId('input-model-retail-price'))).toBe('Retail price is required');
    expect(messageOf(screen.getByTestId('input-model-cost-price'))).toBe(
      'Cost price can have at most 2 decimals in USD',
    );
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
  });

  it('sends prices in minor units and shows a duplicate SKU under its field', async () => {
    const message = 'SKU TEC-SP20 already belongs to Tecno Spark 20';
    const calls = stubApi({
      'POST /api/device-models': () =>
        jsonResponse({ message, code: 'DUPLICATE_SKU', errors: [{ field: 'sku', message }] }, 409),
    });
    renderWithProviders(<ModelForm model={null} currency="USD" onSaved={vi.fn()} onCancel={vi.fn()} />);
    await userEvent.type(screen.getByTestId('input-model-make'), 'Tecno');
    await userEvent.type(screen.getByTestId('input-model-model'), 'Spark 30');
    await userEvent.selectOptions(screen.getByTestId('select-model-category'), 'smartphone');
    await userEvent.type(screen.getByTestId('input-model-sku'), 'TEC-SP20');
    await userEvent.type(screen.getByTestId('input-model-retail-price'), '1,250.50');
    await userEvent.selectOptions(screen.getByTestId('select-model-control'), 'lock_api');
    await userEvent.click(screen.getByTestId('button-save-model'));
    await waitFor(() => expect(messageOf(screen.getByTestId('input-model-sku'))).toBe(message));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      make: 'Tecno',
      model: 'Spark 30',
      category: 'smartphone',
      controlKind: 'lock_api',
      retailPrice: 125_050,
      costPrice: null,
      sku: 'TEC-SP20',
    });
  });

  it('edits only what changed, and keeps the control fixed once the model has units', async () => {
    const existing = model({ units: 3 });
    const calls = stubApi({
      [`PATCH /api/device-models/${existing.id}`]: () => jsonResponse({ ...existing, retailPrice: 16_000 }),
    });
    const onSaved = vi.fn();
    renderWithProviders(<ModelForm model={existing} currency="USD" onSaved={onSaved} onCancel={vi.fn()} />);
    expect(screen.getByTestId('input-model-retail-price')).toHaveValue('150.00');
    expect(screen.getByTestId('select-model-control')).toBeDisabled();
    expect(screen.getByText('3 units use this model, so its control cannot change.')).toBeInTheDocument();
    await userEvent.clear(screen.getByTestId('input-model-retail-price'));
    await userEvent.type(screen.getByTestId('input-model-retail-price'), '160');
    await userEvent.click(screen.getByTestId('button-save-model'));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({ retailPrice: 16_000 });
  });
});
