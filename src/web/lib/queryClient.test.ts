import type { QueryFunctionContext } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '@/web/test/render';

type Module = typeof import('./queryClient');

const fetchMock = vi.fn<typeof fetch>();

/** A fresh copy of the module for every test: the CSRF token is cached in module memory. */
async function load(): Promise<Module> {
  vi.resetModules();
  return import('./queryClient');
}

function callsTo(url: string) {
  return fetchMock.mock.calls.filter(([input]) => String(input) === url);
}

function headersOf(call: Parameters<typeof fetch> | undefined): Record<string, string> {
  return (call?.[1]?.headers ?? {}) as Record<string, string>;
}

function route(handlers: Record<string, () => Response>) {
  fetchMock.mockImplementation(async (input) => {
    const url = String(input);
    const handler = handlers[url];
    if (!handler) throw new Error(`unexpected fetch ${url}`);
    return handler();
  });
}

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('apiRequest: CSRF header', () => {
  it.each(['POST', 'PATCH', 'DELETE', 'PUT'])('sends x-csrf-token on %s', async (method) => {
    const { apiRequest } = await load();
    route({
      '/api/csrf-token': () => jsonResponse({ csrfToken: 'tok-1' }),
      '/api/things': () => jsonResponse({ ok: true }),
    });
    await apiRequest(method, '/api/things', { a: 1 });
    const call = callsTo('/api/things')[0];
    expect(headersOf(call)['x-csrf-token']).toBe('tok-1');
    expect(headersOf(call)['Content-Type']).toBe('application/json');
    expect(call?.[1]?.credentials).toBe('include');
    expect(call?.[1]?.body).toBe(JSON.stringify({ a: 1 }));
  });

  it('does not fetch or send a token on GET', async () => {
    const { apiRequest } = await load();
    route({ '/api/things': () => jsonResponse([]) });
    await apiRequest('GET', '/api/things');
    expect(callsTo('/api/csrf-token')).toHaveLength(0);
    expect(headersOf(callsTo('/api/things')[0])['x-csrf-token']).toBeUndefined();
  });

  it('does not send a token on POST /api/login', async () => {
    const { apiRequest } = await load();
    route({ '/api/login': () => jsonResponse({ id: 'u1' }) });
    await apiRequest('POST', '/api/login', { email: 'a@b.co', password: 'x' });
    expect(callsTo('/api/csrf-token')).toHaveLength(0);
    expect(headersOf(callsTo('/api/login')[0])['x-csrf-token']).toBeUndefined();
  });

  it('caches the token between calls', async () => {
    const { apiRequest } = await load();
    route({
      '/api/csrf-token': () => jsonResponse({ csrfToken: 'tok-1' }),
      '/api/things': () => jsonResponse({ ok: true }),
    });
    await apiRequest('POST', '/api/things', {});
    await apiRequest('PATCH', '/api/things', {});
    await apiRequest('DELETE', '/api/things');
    expect(callsTo('/api/csrf-token')).toHaveLength(1);
    for (const call of callsTo('/api/things')) expect(headersOf(call)['x-csrf-token']).toBe('tok-1');
  });

  it('forgets the token after a 403, so the next call fetches a new one', async () => {
    const { apiRequest } = await load();
    let token = 0;
    let status = 403;
    route({
      '/api/csrf-token': () => jsonResponse({ csrfToken: `tok-${++token}` }),
      '/api/things': () => jsonResponse({ message: 'Forbidden' }, status),
    });
    await expect(apiRequest('POST', '/api/things', {})).rejects.toThrow(/^403: /);
    status = 200;
    await apiRequest('POST', '/api/things', {});
    expect(callsTo('/api/csrf-token')).toHaveLength(2);
    expect(headersOf(callsTo('/api/things')[1])['x-csrf-token']).toBe('tok-2');
  });

  it('still sends the request, without the header, when the token cannot be fetched', async () => {
    const { apiRequest } = await load();
    route({
      '/api/csrf-token': () => new Response('down', { status: 500 }),
      '/api/things': () => jsonResponse({ ok: true }),
    });
    await apiRequest('POST', '/api/things', {});
    expect(headersOf(callsTo('/api/things')[0])['x-csrf-token']).toBeUndefined();
    expect(console.error).toHaveBeenCalledWith('CSRF token fetch failed: 500');
  });

  it('treats an empty token as a failed fetch', async () => {
    const { apiRequest } = await load();
    route({
      '/api/csrf-token': () => jsonResponse({ csrfToken: '' }),
      '/api/things': () => jsonResponse({ ok: true }),
    });
    await apiRequest('POST', '/api/things', {});
    expect(headersOf(callsTo('/api/things')[0])['x-csrf-token']).toBeUndefined();
    expect(console.error).toHaveBeenCalledWith('CSRF token is null or empty');
  });

  it('still sends the request when fetching the token throws (network)', async () => {
    const { apiRequest } = await load();
    fetchMock.mockImplementation(async (input) => {
      if (String(input) === '/api/csrf-token') throw new TypeError('Failed to fetch');
      return jsonResponse({ ok: true });
    });
    await apiRequest('POST', '/api/things', {});
    expect(headersOf(callsTo('/api/things')[0])['x-csrf-token']).toBeUndefined();
  });
});

describe('errors', () => {
  it('uses `status: body` for a non-OK answer', async () => {
    const { apiRequest } = await load();
    route({
      '/api/things': () => new Response('{"message":"Nope"}', { status: 404, statusText: 'Not Found' }),
    });
    await expect(apiRequest('GET', '/api/things')).rejects.toThrow('404: {"message":"Nope"}');
  });

  it('uses the status text when the body is empty', async () => {
    const { apiRequest } = await load();
    route({ '/api/things': () => new Response('', { status: 500, statusText: 'Internal Server Error' }) });
    await expect(apiRequest('GET', '/api/things')).rejects.toThrow('500: Internal Server Error');
  });

  it('parses the answer once into an ApiError: status, code, message and field errors', async () => {
    const { apiRequest, ApiError, errorMessage, fieldErrors } = await load();
    const body =
      '{"message":"Invalid body","code":"VALIDATION","errors":[{"field":"email","message":"Taken"}]}';
    route({ '/api/things': () => new Response(body, { status: 400 }) });
    const error = await apiRequest('GET', '/api/things').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      message: `400: ${body}`,
      status: 400,
      code: 'VALIDATION',
      detail: 'Invalid body',
      fields: { email: 'Taken' },
      details: null,
    });
    expect(errorMessage(error)).toBe('Invalid body');
    expect(fieldErrors(error)).toEqual({ email: 'Taken' });
  });

  it('keeps a body that is not our JSON as the text people see, with no code', async () => {
    const { ApiError, errorMessage, fieldErrors } = await load();
    const error = new ApiError(502, 'Bad Gateway');
    expect(error).toMatchObject({ message: '502: Bad Gateway', status: 502, code: null, fields: {} });
    expect(errorMessage(error)).toBe('502: Bad Gateway');
    expect(fieldErrors(new Error('400: {"errors":[{"field":"a","message":"b"}]}'))).toEqual({});
    expect(new ApiError(409, '{"code":"NOT_A_CODE","message":"x"}').code).toBeNull();
  });

  it('keeps the structured details of a refusal, and only an object', async () => {
    const { ApiError } = await load();
    const details = { customerId: 'c-1', accountNumber: 'C-000123', name: 'Amina Otieno' };
    const body = JSON.stringify({ code: 'DUPLICATE_PHONE', message: 'x', details });
    expect(new ApiError(409, body).details).toEqual(details);
    expect(new ApiError(409, '{"code":"CONFLICT","message":"x","details":[1]}').details).toBeNull();
    expect(new ApiError(502, 'Bad Gateway').details).toBeNull();
  });
});

describe('getQueryFn', () => {
  const context = (queryKey: readonly unknown[]) => ({ queryKey }) as unknown as QueryFunctionContext;

  it('GETs the query key joined with slashes, with credentials', async () => {
    const { getQueryFn } = await load();
    route({ '/api/users/42': () => jsonResponse({ id: '42' }) });
    await expect(getQueryFn({ on401: 'throw' })(context(['/api/users', '42']))).resolves.toEqual({
      id: '42',
    });
    expect(fetchMock.mock.calls[0]?.[1]?.credentials).toBe('include');
  });

  it('returns null on 401 when asked to', async () => {
    const { getQueryFn } = await load();
    route({ '/api/user': () => new Response('', { status: 401, statusText: 'Unauthorized' }) });
    await expect(getQueryFn({ on401: 'returnNull' })(context(['/api/user']))).resolves.toBeNull();
    await expect(getQueryFn({ on401: 'throw' })(context(['/api/user']))).rejects.toThrow('401: Unauthorized');
  });

  it('throws on other non-OK answers', async () => {
    const { getQueryFn } = await load();
    route({ '/api/user': () => new Response('boom', { status: 500 }) });
    await expect(getQueryFn({ on401: 'returnNull' })(context(['/api/user']))).rejects.toThrow('500: boom');
  });
});
