import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Plan } from '@/contracts/plans';
import { model, stubApi } from '@/web/features/devices/test-api';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { PlanForm } from './plan-form';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function messageOf(control: HTMLElement): string | null {
  const ids = control.getAttribute('aria-describedby')?.split(' ') ?? [];
  const error = ids.find((id) => id.endsWith('-error'));
  return error ? (document.getElementById(error)?.textContent ?? null) : null;
}

const BASE: Plan = {
  id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
  familyId: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
  version: 1,
  status: 'active',
  code: 'PHONE-12M',
  name: 'Phone 12 months',
  description: null,
  eligibleCategories: ['smartphone'],
  eligibleModelIds: [],
  minDepositPercent: 10,
  minDepositAmount: 0,
  frequency: 'monthly',
  allowedTerms: [6, 12],
  apr: 36,
  interestMethod: 'declining',
  installmentMultiple: 0,
  serviceFee: 0,
  lateFeeKind: 'none',
  lateFeeValue: 0,
  graceDays: 0,
  lockAfterDays: 7,
  defaultAfterDays: 90,
  allocationStrategy: 'default',
  earlySettlementDiscountPercent: 0,
  currency: 'USD',
  createdAt: '2026-01-01T00:00:00.000Z',
  activatedAt: '2026-01-02T00:00:00.000Z',
  retiredAt: null,
  contracts: 2,
};
const PLAN: Plan & { versions: Plan[] } = { ...BASE, versions: [BASE] };

async function fillNewPlan() {
  await userEvent.type(screen.getByTestId('input-plan-code'), 'solar-52w');
  await userEvent.type(screen.getByTestId('input-plan-name'), 'Solar weekly');
  await userEvent.selectOptions(screen.getByTestId('select-plan-frequency'), 'weekly');
  await userEvent.type(screen.getByTestId('input-plan-terms'), '26, 52');
  await userEvent.type(screen.getByTestId('input-plan-apr'), '48');
}

describe('PlanForm', () => {
  it('names the missing fields before sending anything', async () => {
    const calls = stubApi({});
    renderWithProviders(
      <PlanForm currency="USD" aprCap={100} models={[]} onSaved={vi.fn()} onCancel={vi.fn()} />,
    );
    expect(screen.getByText('The organisation’s cap is 100%.')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('button-save-plan'));
    await waitFor(() => expect(messageOf(screen.getByTestId('input-plan-code'))).toBe('Code is required'));
    expect(messageOf(screen.getByTestId('input-plan-name'))).toBe('Name is required');
    expect(messageOf(screen.getByTestId('input-plan-terms'))).toBe('Give at least one allowed term');
    expect(messageOf(screen.getByTestId('input-plan-apr'))).toBe('APR is required (0 for interest-free)');
    expect(screen.getByTestId('input-plan-code')).toHaveFocus();
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
  });

  it('creates a draft with the body the API expects, eligibility included', async () => {
    const phone = model();
    const calls = stubApi({
      'POST /api/service-plans': () => jsonResponse({ ...BASE, status: 'draft' }, 201),
    });
    const onSaved = vi.fn();
    renderWithProviders(
      <PlanForm currency="USD" aprCap={null} models={[phone]} onSaved={onSaved} onCancel={vi.fn()} />,
    );
    await fillNewPlan();
    await userEvent.click(screen.getByLabelText('Solar home system'));
    await userEvent.click(screen.getByLabelText('Tecno Spark 20'));
    await userEvent.selectOptions(screen.getByTestId('select-plan-late-fee-kind'), 'percent');
    await userEvent.type(screen.getByTestId('input-plan-late-fee-value'), '5');
    await userEvent.click(screen.getByTestId('button-save-plan'));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({
      code: 'SOLAR-52W',
      frequency: 'weekly',
      allowedTerms: [26, 52],
      apr: 48,
      lateFeeKind: 'percent',
      lateFeeValue: 5,
      eligibleCategories: ['solar_home_system'],
      eligibleModelIds: [phone.id],
    });
  });

  it('shows the server’s APR cap refusal under the APR field', async () => {
    const message = "APR 48% is above the organisation's cap of 40%";
    stubApi({ 'POST /api/service-plans': () => jsonResponse({ message, code: 'APR_CAP' }, 422) });
    renderWithProviders(
      <PlanForm currency="USD" aprCap={null} models={[]} onSaved={vi.fn()} onCancel={vi.fn()} />,
    );
    await fillNewPlan();
    await userEvent.click(screen.getByTestId('button-save-plan'));
    await waitFor(() => expect(messageOf(screen.getByTestId('input-plan-apr'))).toBe(message));
  });

  it('puts 400 field messages under their fields', async () => {
    stubApi({
      'POST /api/service-plans': () =>
        jsonResponse(
          {
            message: 'Invalid body',
            code: 'VALIDATION',
            errors: [
              { field: 'allowedTerms.1', message: 'A term must be at most 3660' },
              { field: 'eligibleModelIds', message: 'Unknown device model: x' },
            ],
          },
          400,
        ),
    });
    renderWithProviders(
      <PlanForm currency="USD" aprCap={null} models={[]} onSaved={vi.fn()} onCancel={vi.fn()} />,
    );
    await fillNewPlan();
    await userEvent.click(screen.getByTestId('button-save-plan'));
    await waitFor(() =>
      expect(messageOf(screen.getByTestId('input-plan-terms'))).toBe('A term must be at most 3660'),
    );
  });

  it('says that editing an active version makes the next version a draft, and sends only the change', async () => {
    const calls = stubApi({
      [`PATCH /api/service-plans/${PLAN.id}`]: () =>
        jsonResponse({ ...BASE, id: 'new', version: 2, status: 'draft', apr: 30 }),
    });
    const onSaved = vi.fn();
    renderWithProviders(
      <PlanForm plan={PLAN} currency="USD" aprCap={null} models={[]} onSaved={onSaved} onCancel={vi.fn()} />,
    );
    expect(screen.getByTestId('text-new-version-note')).toHaveTextContent(
      'Saving creates version 2 as a draft',
    );
    expect(screen.getByTestId('button-save-plan')).toHaveTextContent('Save as version 2 (draft)');
    expect(screen.getByTestId('input-plan-code')).toHaveAttribute('readonly');
    await userEvent.click(screen.getByTestId('button-save-plan'));
    expect(await screen.findByTestId('alert-form-error')).toHaveTextContent('Nothing changed.');
    await userEvent.clear(screen.getByTestId('input-plan-apr'));
    await userEvent.type(screen.getByTestId('input-plan-apr'), '30');
    await userEvent.click(screen.getByTestId('button-save-plan'));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(expect.objectContaining({ version: 2 })));
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({ apr: 30 });
  });

  it('shows a live example schedule from the terms typed', async () => {
    stubApi({});
    renderWithProviders(
      <PlanForm currency="USD" aprCap={null} models={[model()]} onSaved={vi.fn()} onCancel={vi.fn()} />,
    );
    expect(screen.getByTestId('card-schedule-preview')).toHaveTextContent('Correct the highlighted fields');
    await userEvent.type(screen.getByTestId('input-plan-code'), 'P1');
    await userEvent.type(screen.getByTestId('input-plan-name'), 'Plan');
    await userEvent.type(screen.getByTestId('input-plan-terms'), '12');
    await userEvent.type(screen.getByTestId('input-plan-apr'), '0');
    // 150.00 with no deposit over 12 months at 0%: 12.50 a month.
    await waitFor(() => expect(screen.getByTestId('text-preview-payment')).toHaveTextContent('$12.50'));
    expect(screen.getByTestId('input-preview-price')).toHaveValue('150.00');
  });
});
