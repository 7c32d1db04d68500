import { describe, expect, it } from 'vitest';
import { errorForLog, logSerializers } from './logging';

describe('what the logs may hold', () => {
  it('logs a request by method and path, never its query', () => {
    const logged = logSerializers.req({
      method: 'GET',
      url: '/api/customers?q=Jane%20Doe&phone=%2B254700000001',
      id: 'r1',
    } as never);
    expect(logged).toEqual({ method: 'GET', url: '/api/customers', requestId: 'r1' });
    expect(JSON.stringify(logged)).not.toContain('Jane');
  });

  it("drops a failed statement's parameters and the driver's detail, keeping type, code and frames", () => {
    const driver = Object.assign(
      new Error('duplicate key value violates unique constraint "customers_phone"'),
      {
        code: '23505',
        detail: 'Key (phone)=(+254700000001) already exists.',
      },
    );
    const wrapped = new Error(
      'Failed query: insert into "customers" ("phone", "first_name") values ($1, $2)\nparams: +254700000001,Jane',
      { cause: driver },
    );
    wrapped.name = 'DrizzleQueryError';
    const logged = errorForLog(wrapped);
    const text = JSON.stringify(logged);
    expect(text).not.toContain('+254700000001');
    expect(text).not.toContain('Jane');
    expect(logged).toMatchObject({
      type: 'DrizzleQueryError',
      message: expect.stringContaining('params: [not logged]'),
      cause: { code: '23505', message: expect.stringContaining('customers_phone') },
    });
    expect(logged.stack).toContain('    at ');
  });
});
