import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { answerJson, OutboundTimeout, outboundFailure, outboundRequest } from './outbound-http';

let server: Server | undefined;

/** A local server answering each request with `handle`; its address. */
async function serve(handle: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handle);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

describe('outboundRequest', () => {
  it('sends the method, headers and body, and answers the status and text', async () => {
    const url = await serve((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ method: req.method, key: req.headers['idempotency-key'], body }));
      });
    });
    const answer = await outboundRequest(`${url}/send`, {
      method: 'POST',
      headers: { 'idempotency-key': 'm-1' },
      body: 'to=%2B254700000001&message=Habari',
      timeoutMs: 5_000,
    });
    expect(answer).toMatchObject({ status: 201, ok: true });
    expect(answerJson(answer)).toEqual({
      method: 'POST',
      key: 'm-1',
      body: 'to=%2B254700000001&message=Habari',
    });
    const refused = await serve((_req, res) => {
      res.writeHead(503);
      res.end('down');
    });
    expect(await outboundRequest(refused, { timeoutMs: 5_000 })).toEqual({
      status: 503,
      ok: false,
      text: 'down',
    });
  });

  it('gives up after its time with a TimeoutError', async () => {
    const url = await serve(() => undefined); // never answers
    const error = await outboundRequest(url, { timeoutMs: 50 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutboundTimeout);
    expect(error).toMatchObject({ name: 'TimeoutError', message: 'No answer within 50 ms' });
    expect(outboundFailure(error)).toBe('No answer within 50 ms');
  });

  it('names a refused connection by its code', async () => {
    const url = await serve(() => undefined);
    server?.close();
    const error = await outboundRequest(url, { timeoutMs: 5_000 }).catch((e: unknown) => e);
    expect((error as Error & { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED');
    // As staff read it on a failed message, command or push.
    expect(outboundFailure(error)).toBe('the connection was refused (ECONNREFUSED)');
    expect(outboundFailure(new Error('x', { cause: { code: 'EWHATEVER' } }))).toBe(
      'the request failed (EWHATEVER)',
    );
    expect(outboundFailure(new Error('Not an http(s) address: ftp://x'))).toBe(
      'Not an http(s) address: ftp://x',
    );
  });

  it('sends again on a new connection when a kept one was closed under it', async () => {
    let requests = 0;
    const url = await serve((req, res) => {
      requests += 1;
      // The second request arrives on the kept connection: the service drops it unanswered.
      if (requests === 2) return req.socket.destroy();
      res.end(`answer ${requests}`);
    });
    expect((await outboundRequest(url, { timeoutMs: 5_000 })).text).toBe('answer 1');
    expect((await outboundRequest(url, { timeoutMs: 5_000 })).text).toBe('answer 3');
    expect(requests).toBe(3);
  });

  it('refuses an address that is not http(s), and reads no JSON from text', async () => {
    await expect(outboundRequest('ftp://example.com/x', { timeoutMs: 1_000 })).rejects.toThrow(
      'Not an http(s) address',
    );
    expect(answerJson({ status: 200, ok: true, text: 'not json' })).toBeNull();
    expect(answerJson({ status: 204, ok: true, text: '' })).toBeNull();
  });
});
