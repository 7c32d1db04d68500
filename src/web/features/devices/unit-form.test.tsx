import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { device, model, SOLAR, stubApi } from './test-api';
import { UnitForm } from './unit-form';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const PHONE = model();

/** The message linked to a control through aria-describedby. */
function messageOf(control: HTMLElement): string | null {
  const ids = control.getAttribute('aria-describedby')?.split(' ') ?? [];
  const error = ids.find((id) => id.endsWith('-error'));
  return error ? (document.getElementById(error)?.textContent ?? null) : null;
}

function renderForm(onCreated = vi.fn()) {
  renderWithProviders(<UnitForm models={[PHONE, SOLAR]} onCreated={onCreated} onCancel={vi.fn()} />);
  return onCreated;
}

describe('UnitForm', () => {
  it('says the IMEI check digit is wrong, under the field, without asking the server', async () => {
    const calls = stubApi({});
    renderForm();
    await userEvent.selectOptions(screen.getByTestId('select-unit-model'), PHONE.id);
    await userEvent.type(screen.getByTestId('input-unit-serial'), 'SN-1');
    await userEvent.type(screen.getByTestId('input-unit-imei'), '490154203237517');
    await userEvent.click(screen.getByTestId('button-save-unit'));
    const imei = screen.getByTestId('input-unit-imei');
    await waitFor(() => expect(imei).toHaveAttribute('aria-invalid', 'true'));
    expect(messageOf(imei)).toBe('IMEI check digit is wrong');
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);

    await userEvent.clear(imei);
    await userEvent.type(imei, '49015420');
    await userEvent.tab();
    await waitFor(() => expect(messageOf(imei)).toBe('IMEI must be 15 digits'));
  });

  it('asks for the OpenPAYGO secret key only for OpenPAYGO models, write-only', async () => {
    stubApi({});
    renderForm();
    await userEvent.selectOptions(screen.getByTestId('select-unit-model'), PHONE.id);
    expect(screen.queryByTestId('fieldset-openpaygo')).not.toBeInTheDocument();
    await userEvent.selectOptions(screen.getByTestId('select-unit-model'), SOLAR.id);
    const key = await screen.findByTestId('input-unit-secret-key');
    expect(key).toHaveAttribute('type', 'password');
    expect(key).toHaveAttribute('autocomplete', 'off');
    await userEvent.type(screen.getByTestId('input-unit-serial'), 'SK-1');
    await userEvent.click(screen.getByTestId('button-save-unit'));
    await waitFor(() => expect(messageOf(key)).toBe('OpenPAYGO units need their secret key'));
    await userEvent.type(key, 'abc');
    await userEvent.type(screen.getByTestId('input-unit-starting-code'), '12x');
    await userEvent.click(screen.getByTestId('button-save-unit'));
    await waitFor(() =>
      expect(messageOf(key)).toBe('Secret key must be 32 hexadecimal characters (16 bytes)'),
    );
    expect(messageOf(screen.getByTestId('input-unit-starting-code'))).toBe(
      'Starting code must be a whole number of at most 9 digits',
    );
  });

  it('sends the unit with its control settings and hands back the created unit', async () => {
    const created = device({
      control: { kind: 'openpaygo', startingCode: 123456789, count: 0, timeDivider: 1 },
    });
    const calls = stubApi({ 'POST /api/devices': () => jsonResponse(created, 201) });
    const onCreated = renderForm();
    await userEvent.selectOptions(screen.getByTestId('select-unit-model'), SOLAR.id);
    await userEvent.type(screen.getByTestId('input-unit-serial'), 'SK-1');
    await userEvent.type(screen.getByTestId('input-unit-secret-key'), 'a'.repeat(32));
    await userEvent.type(screen.getByTestId('input-unit-starting-code'), '123456789');
    const divider = screen.getByTestId('input-unit-time-divider');
    await userEvent.clear(divider);
    await userEvent.type(divider, '24');
    await userEvent.click(screen.getByTestId('button-save-unit'));
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith(created));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      modelId: SOLAR.id,
      serialNumber: 'SK-1',
      control: { kind: 'openpaygo', secretKey: 'a'.repeat(32), startingCode: '123456789', timeDivider: 24 },
    });
  });

  it('refuses starting code 0 and a time divider outside 1 to 995, under their fields', async () => {
    const calls = stubApi({});
    renderForm();
    await userEvent.selectOptions(screen.getByTestId('select-unit-model'), SOLAR.id);
    await userEvent.type(screen.getByTestId('input-unit-serial'), 'SK-2');
    await userEvent.type(screen.getByTestId('input-unit-secret-key'), 'a'.repeat(32));
    await userEvent.type(screen.getByTestId('input-unit-starting-code'), '000');
    const divider = screen.getByTestId('input-unit-time-divider');
    await userEvent.clear(divider);
    await userEvent.type(divider, '996');
    await userEvent.click(screen.getByTestId('button-save-unit'));
    await waitFor(() =>
      expect(messageOf(screen.getByTestId('input-unit-starting-code'))).toMatch(
        /^Starting code 0 cannot be used/,
      ),
    );
    expect(messageOf(divider)).toBe(
      'The time divider must be a whole number from 1 to 995 (1: days, 24: hours)',
    );
    expect(calls.find((call) => call.method === 'POST')).toBeUndefined();
  });

  it('shows the server’s messages under their fields (duplicate serial, nested control key)', async () => {
    const serialMessage = 'Serial number SN-1 already belongs to Tecno Spark 20 unit SN-1 (in stock)';
    stubApi({
      'POST /api/devices': () =>
        jsonResponse(
          {
            message: serialMessage,
            code: 'DUPLICATE_SERIAL',
            errors: [{ field: 'serialNumber', message: serialMessage }],
          },
          409,
        ),
    });
    renderForm();
    await userEvent.selectOptions(screen.getByTestId('select-unit-model'), PHONE.id);
    await userEvent.type(screen.getByTestId('input-unit-serial'), 'SN-1');
    await userEvent.type(screen.getByTestId('input-unit-imei'), '490154203237518');
    await userEvent.click(screen.getByTestId('button-save-unit'));
    const serial = screen.getByTestId('input-unit-serial');
    await waitFor(() => expect(messageOf(serial)).toBe(serialMessage));
    expect(serial).toHaveFocus();
    expect(screen.queryByTestId('alert-form-error')).not.toBeInTheDocument();
  });

  it('maps control.secretKey from a 400 and puts a rule refusal in the alert', async () => {
    let answer = 0;
    stubApi({
      'POST /api/devices': () =>
        ++answer === 1
          ? jsonResponse(
              {
                message: 'Invalid body',
                code: 'VALIDATION',
                errors: [
                  { field: 'control.secretKey', message: 'Secret key must be 32 hexadecimal characters' },
                ],
              },
              400,
            )
          : jsonResponse(
              { message: 'SunKing Home 120 is deactivated; it takes no new units', code: 'MODEL_INACTIVE' },
              422,
            ),
    });
    renderForm();
    await userEvent.selectOptions(screen.getByTestId('select-unit-model'), SOLAR.id);
    await userEvent.type(screen.getByTestId('input-unit-serial'), 'SK-2');
    await userEvent.type(screen.getByTestId('input-unit-secret-key'), 'b'.repeat(32));
    await userEvent.click(screen.getByTestId('button-save-unit'));
    await waitFor(() =>
      expect(messageOf(screen.getByTestId('input-unit-secret-key'))).toBe(
        'Secret key must be 32 hexadecimal characters',
      ),
    );
    await userEvent.click(screen.getByTestId('button-save-unit'));
    expect(await screen.findByTestId('alert-form-error')).toHaveTextContent(
      'SunKing Home 120 is deactivated; it takes no new units',
    );
  });
});
