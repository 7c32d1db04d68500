import { vi } from 'vitest';
import type { DeviceDetail, DeviceModel } from '@/contracts/devices';
import type { OrganisationSettings } from '@/contracts/profile';
import { jsonResponse } from '@/web/test/render';

export interface Call {
  method: string;
  url: string;
  body: unknown;
}

type Handler = (call: Call) => Response | Promise<Response>;

/**
 * Stubs fetch with handlers keyed "METHOD /path" (the query string ignored); the CSRF token and
 * the signed-in owner are answered by default. Returns the calls made, for assertions.
 */
export function stubApi(handlers: Record<string, Handler>): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const method = (init?.method ?? 'GET').toUpperCase();
      const path = url.split('?')[0];
      let body: unknown = init?.body;
      if (typeof body === 'string') body = JSON.parse(body);
      const call = { method, url, body };
      if (path === '/api/csrf-token') return jsonResponse({ csrfToken: 'token' });
      calls.push(call);
      const handler = handlers[`${method} ${path}`];
      if (handler) return handler(call);
      if (path === '/api/user') return jsonResponse(OWNER);
      return jsonResponse({ message: `No stub for ${method} ${path}`, code: 'NOT_FOUND' }, 404);
    }),
  );
  return calls;
}

export const OWNER = {
  id: 'u1',
  email: 'owner@example.com',
  firstName: 'Grace',
  lastName: 'Owino',
  role: 'admin',
  isOwner: true,
};

export function model(overrides: Partial<DeviceModel> = {}): DeviceModel {
  return {
    id: '11111111-1111-4111-8111-111111111111',
    make: 'Tecno',
    model: 'Spark 20',
    name: 'Tecno Spark 20',
    category: 'smartphone',
    sku: 'TEC-SP20',
    retailPrice: 15_000,
    costPrice: 11_000,
    currency: 'USD',
    controlKind: 'lock_api',
    active: true,
    units: 0,
    createdAt: '2026-01-05T10:00:00.000Z',
    updatedAt: '2026-01-05T10:00:00.000Z',
    ...overrides,
  };
}

export const SOLAR = model({
  id: '22222222-2222-4222-8222-222222222222',
  make: 'SunKing',
  model: 'Home 120',
  name: 'SunKing Home 120',
  category: 'solar_home_system',
  sku: 'SK-H120',
  controlKind: 'openpaygo',
});

/** An OpenPAYGO unit in stock, as GET /api/devices/:id answers it. */
export function device(overrides: Partial<DeviceDetail> = {}): DeviceDetail {
  return {
    id: '33333333-3333-4333-8333-333333333333',
    serialNumber: 'SK-1',
    imei: null,
    model: {
      id: SOLAR.id,
      make: SOLAR.make,
      model: SOLAR.model,
      name: SOLAR.name,
      category: SOLAR.category,
      sku: SOLAR.sku,
    },
    status: 'in_stock',
    lockState: 'unknown',
    activeUntil: null,
    controlKind: 'openpaygo',
    control: { kind: 'openpaygo', startingCode: 123456789, count: 1, timeDivider: 1 },
    notes: null,
    condition: null,
    conditionNotes: null,
    createdAt: '2026-01-05T10:00:00.000Z',
    updatedAt: '2026-01-05T10:00:00.000Z',
    events: [],
    allowedTransitions: ['reserved', 'lost', 'written_off'],
    contract: null,
    ...overrides,
  };
}

/** GET /api/settings/organisation: a lender in US dollars without an APR cap. */
export const ORGANISATION: OrganisationSettings = {
  name: 'Sunrise Device Finance',
  currency: 'USD',
  timeZone: 'UTC',
  country: 'US',
  delinquencyBuckets: [1, 31, 61, 91],
  quietHoursStart: '20:00',
  quietHoursEnd: '08:00',
  aprCap: null,
  incomeBands: null,
  closeOfBusinessTime: '23:30',
  interestAccrualFrom: null,
  updatedAt: '2026-01-01T00:00:00.000Z',
};
