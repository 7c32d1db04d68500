import { vi } from 'vitest';
import type { User } from '@/contracts/auth';
import type { Customer, KycDocument } from '@/contracts/customers';
import { jsonResponse } from '@/web/test/render';

/** Fixtures and a fetch stub for the customer component tests. */

export const agent: User = {
  id: '1a2b3c4d-0000-4000-8000-00000000a001',
  email: 'joseph@example.com',
  firstName: 'Joseph',
  lastName: 'Kamau',
  role: 'agent',
  isOwner: false,
};
export const reviewer: User = {
  ...agent,
  id: '1a2b3c4d-0000-4000-8000-00000000a002',
  firstName: 'Wanjiru',
  lastName: 'Mwangi',
};
export const viewer: User = { ...agent, id: '1a2b3c4d-0000-4000-8000-00000000a003', role: 'viewer' };

export const CUSTOMER_ID = '7b0a4f0e-5d0c-4a44-9a53-1f1d1c1e0001';

export function makeCustomer(overrides: Partial<Customer> = {}): Customer {
  return {
    id: CUSTOMER_ID,
    accountNumber: 'C-000042',
    firstName: 'Amina',
    lastName: 'Otieno',
    otherNames: null,
    fullName: 'Amina Otieno',
    phone: '+254712345678',
    email: null,
    nationalId: '12345678',
    dateOfBirth: '1990-05-17',
    gender: 'female',
    address: null,
    region: 'Nairobi',
    occupation: 'Tailor',
    employment: 'self_employed',
    monthlyIncome: 4_500_000,
    currency: 'KES',
    assignedAgent: { id: agent.id, name: 'Joseph Kamau' },
    language: 'en',
    tags: [],
    consents: {
      sms: '2026-01-10T08:00:00.000Z',
      whatsapp: null,
      email: null,
      marketing: null,
      dataProcessing: null,
    },
    kyc: {
      status: 'pending',
      rejectionReason: null,
      reviewedBy: null,
      reviewedAt: null,
      requiredDocuments: ['id_front', 'selfie'],
      missingDocuments: ['id_front', 'selfie'],
    },
    risk: null,
    masked: false,
    createdBy: { id: agent.id, name: 'Joseph Kamau' },
    createdAt: '2026-01-10T08:00:00.000Z',
    updatedAt: '2026-01-10T08:00:00.000Z',
    version: 1,
    ...overrides,
  };
}

export function makeDocument(overrides: Partial<KycDocument> = {}): KycDocument {
  return {
    id: '9c1d2e3f-0000-4000-8000-000000000001',
    customerId: CUSTOMER_ID,
    type: 'id_front',
    fileName: 'front.jpg',
    mimeType: 'image/jpeg',
    size: 48_213,
    sha256: 'ab'.repeat(32),
    status: 'pending',
    rejectionReason: null,
    uploadedBy: { id: agent.id, name: 'Joseph Kamau' },
    uploadedAt: '2026-01-10T09:00:00.000Z',
    reviewedBy: null,
    reviewedAt: null,
    latest: true,
    ...overrides,
  };
}

export interface Call {
  method: string;
  url: string;
  body: unknown;
}

/** An answer for a call, or undefined for the defaults; a promise holds the answer back (a slow server). */
type Handler = (call: Call) => Response | Promise<Response> | undefined;

/**
 * Stubs fetch: the signed-in user, the organisation, the CSRF token and empty lists by default;
 * `handler` answers first. Returns the calls made (method, url, parsed JSON body or FormData).
 */
export function stubApi(user: User | null, handler: Handler = () => undefined): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const method = (init?.method ?? 'GET').toUpperCase();
      let body: unknown = init?.body;
      if (typeof body === 'string') body = JSON.parse(body);
      const call = { method, url, body };
      calls.push(call);
      const answer = handler(call);
      if (answer) return answer;
      if (url === '/api/user') return user ? jsonResponse(user) : jsonResponse({ message: 'no' }, 401);
      if (url === '/api/csrf-token') return jsonResponse({ csrfToken: 'test-token' });
      if (url === '/api/organisation')
        return jsonResponse({ name: 'Sunrise', currency: 'KES', country: 'KE' });
      if (url === '/api/customers/regions') return jsonResponse(['Nairobi', 'Mombasa']);
      if (url.startsWith('/api/contracts?'))
        return jsonResponse({ items: [], total: 0, page: 1, pageSize: 5 });
      if (url.endsWith('/timeline')) return jsonResponse([]);
      return jsonResponse({ message: `Not stubbed: ${method} ${url}`, code: 'NOT_FOUND' }, 404);
    }),
  );
  return calls;
}

export const apiError = (status: number, body: Record<string, unknown>) => jsonResponse(body, status);
