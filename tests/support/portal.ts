import { expect } from 'vitest';
import type { TestApp, TestClient } from './app';

/**
 * The customer portal's sign-in as a customer goes through it: ask for a code, read it where a
 * developer would (the outbox, as staff allowed to read messages), type it in.
 */

/** The newest sign-in code queued to this phone (E.164). */
export async function otpFromOutbox(staff: TestClient, phone: string): Promise<string> {
  const response = await staff.get(`/api/outbox?recipient=${encodeURIComponent(phone)}`);
  expect(response.statusCode, response.body).toBe(200);
  const items = response.json<{ items: Array<{ body: string; template: string }> }>().items;
  const code = items
    .filter((item) => item.template === 'reply')
    .map((item) => /\b(\d{6})\b is your .* sign-in code/.exec(item.body)?.[1])
    .find(Boolean);
  if (!code) throw new Error(`No sign-in code in the outbox for ${phone}`);
  return code;
}

/** A new browser-like client signed in to the portal as the customer of this phone. */
export async function portalSignIn(t: TestApp, staff: TestClient, phone: string): Promise<TestClient> {
  const client = t.client();
  const asked = await client.post('/api/portal/otp', { phone }, { csrf: false });
  expect(asked.statusCode, asked.body).toBe(202);
  const code = await otpFromOutbox(staff, phone);
  const login = await client.post('/api/portal/login', { phone, code }, { csrf: false });
  expect(login.statusCode, login.body).toBe(200);
  return client;
}
