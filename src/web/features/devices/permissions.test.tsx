import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Route } from 'wouter';
import type { Device } from '@/contracts/devices';
import type { Plan } from '@/contracts/plans';
import ServicePlanDetailPage from '@/web/pages/service-plan-detail';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { ModelsList } from './models-list';
import { model, ORGANISATION, OWNER, stubApi } from './test-api';
import { UnitsList } from './units-list';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const VIEWER = { ...OWNER, isOwner: false, role: 'viewer' };
const page = <T,>(items: T[]) => jsonResponse({ items, total: items.length, page: 1, pageSize: 50 });

const UNIT: Device = {
  id: '44444444-4444-4444-8444-444444444444',
  serialNumber: 'SN-1',
  imei: null,
  model: {
    id: model().id,
    make: 'Tecno',
    model: 'Spark 20',
    name: 'Tecno Spark 20',
    category: 'smartphone',
    sku: null,
  },
  status: 'in_stock',
  lockState: 'unknown',
  activeUntil: null,
  controlKind: 'lock_api',
  control: null,
  notes: null,
  condition: null,
  conditionNotes: null,
  createdAt: '2026-01-05T10:00:00.000Z',
  updatedAt: '2026-01-05T10:00:00.000Z',
};

const PLAN: Plan = {
  id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
  familyId: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
  version: 1,
  status: 'draft',
  code: 'PHONE-12M',
  name: 'Phone 12 months',
  description: null,
  eligibleCategories: [],
  eligibleModelIds: [],
  minDepositPercent: 10,
  minDepositAmount: 0,
  frequency: 'monthly',
  allowedTerms: [12],
  apr: 36,
  interestMethod: 'declining',
  installmentMultiple: 0,
  serviceFee: 0,
  lateFeeKind: 'none',
  lateFeeValue: 0,
  graceDays: 0,
  lockAfterDays: null,
  defaultAfterDays: null,
  allocationStrategy: 'default',
  earlySettlementDiscountPercent: 0,
  currency: 'USD',
  createdAt: '2026-01-01T00:00:00.000Z',
  activatedAt: null,
  retiredAt: null,
  contracts: 0,
};

function stubAs(user: typeof OWNER) {
  return stubApi({
    'GET /api/user': () => jsonResponse(user),
    'GET /api/devices': () => page([UNIT]),
    'GET /api/device-models': () => page([model()]),
    'GET /api/settings/organisation': () => jsonResponse(ORGANISATION),
    [`GET /api/service-plans/${PLAN.id}`]: () => jsonResponse({ ...PLAN, versions: [PLAN] }),
  });
}

describe('what a viewer may do', () => {
  it('lists units with a link to each, but offers no Add unit or Import', async () => {
    stubAs(VIEWER);
    renderWithProviders(<UnitsList />, { path: '/devices' });
    const link = await screen.findByRole('link', { name: /SN-1/ });
    expect(link).toHaveAttribute('href', `/devices/${UNIT.id}`);
    expect(screen.queryByTestId('button-add-unit')).not.toBeInTheDocument();
    expect(screen.queryByTestId('button-import-units')).not.toBeInTheDocument();
  });

  it('shows the catalogue without New model, Edit or Deactivate', async () => {
    stubAs(VIEWER);
    renderWithProviders(<ModelsList />, { path: '/devices?tab=models' });
    await screen.findByText('Tecno Spark 20');
    expect(screen.queryByTestId('button-new-model')).not.toBeInTheDocument();
    expect(screen.queryByText('Actions')).not.toBeInTheDocument();
  });

  it('reads a plan without Activate, Edit or Retire', async () => {
    stubAs(VIEWER);
    renderWithProviders(<Route path="/service-plans/:id" component={ServicePlanDetailPage} />, {
      path: `/service-plans/${PLAN.id}`,
    });
    expect(await screen.findByTestId('card-plan-terms')).toBeInTheDocument();
    expect(screen.queryByTestId('button-activate-plan')).not.toBeInTheDocument();
    expect(screen.queryByTestId('button-edit-plan')).not.toBeInTheDocument();
    expect(screen.queryByTestId('button-retire-plan')).not.toBeInTheDocument();
  });
});

describe('what a manager may do', () => {
  it('adds, imports and edits', async () => {
    stubAs({ ...OWNER, isOwner: false, role: 'manager' });
    renderWithProviders(<UnitsList />, { path: '/devices' });
    expect(await screen.findByTestId('button-add-unit')).toBeInTheDocument();
    expect(screen.getByTestId('button-import-units')).toBeInTheDocument();
  });

  it('activates, edits and retires a draft plan', async () => {
    stubAs({ ...OWNER, isOwner: false, role: 'manager' });
    renderWithProviders(<Route path="/service-plans/:id" component={ServicePlanDetailPage} />, {
      path: `/service-plans/${PLAN.id}`,
    });
    expect(await screen.findByTestId('button-activate-plan')).toBeInTheDocument();
    expect(screen.getByTestId('button-edit-plan')).toHaveTextContent('Edit draft');
    expect(screen.getByTestId('button-retire-plan')).toBeInTheDocument();
  });
});
