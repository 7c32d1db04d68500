import http from 'node:http';
import https from 'node:https';

/** What an outside service answered: its status and its body as text. */
export interface OutboundAnswer {
  status: number;
  ok: boolean;
  text: string;
}

export interface OutboundRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** The whole exchange, connection to last byte: past it the request is abandoned. */
  timeoutMs: number;
}

/** No answer within the request's time: `error.name` is 'TimeoutError', as fetch's was. */
export class OutboundTimeout extends Error {
  override name = 'TimeoutError';
  constructor(timeoutMs: number) {
    super(`No answer within ${timeoutMs} ms`);
  }
}

/** An answer longer than this is refused (every provider answers a few hundred bytes). */
const MAX_ANSWER_BYTES = 1024 * 1024;

/**
 * Connections kept open between requests, as fetch kept them. An idle connection is closed after
 * 4 s (fetch's keep-alive time too), before a provider's own idle timeout, which is rarely shorter.
 */
const agents = {
  'http:': new http.Agent({ keepAlive: true, timeout: 4_000 }),
  'https:': new https.Agent({ keepAlive: true, timeout: 4_000 }),
};

/**
 * One request to an outside service: the message gateways, the lock API, M-Pesa and the language
 * model endpoints. node:http, not fetch: a bulk send is thousands of requests, and fetch spent three
 * times the CPU of this per request on this machine (10,000 form POSTs at 16 at a time to a local
 * server, its answers read: 7.0-10.5 s of CPU against 2.2-3.2 s, both sides counted; decision 059).
 *
 * A network failure rejects with an Error whose `cause` is the socket's error (its `code`, such as
 * ECONNREFUSED, names it), a timeout with OutboundTimeout. A request that fails on a kept
 * connection the service had just closed (ECONNRESET before any answer) goes once more on a new
 * one, as Node's documentation advises; every caller sends an idempotency key or a read.
 */
export async function outboundRequest(url: string, request: OutboundRequest): Promise<OutboundAnswer> {
  try {
    return await exchange(url, request, false);
  } catch (error) {
    if (error instanceof StaleConnection) return await exchange(url, request, true);
    throw error;
  }
}

/** A kept connection was closed under the request before any answer came. */
class StaleConnection extends Error {}

function exchange(url: string, request: OutboundRequest, fresh: boolean): Promise<OutboundAnswer> {
  const target = new URL(url);
  const protocol = target.protocol === 'https:' ? 'https:' : target.protocol === 'http:' ? 'http:' : null;
  if (!protocol) return Promise.reject(new Error(`Not an http(s) address: ${url}`));
  const body = request.body === undefined ? undefined : Buffer.from(request.body, 'utf8');
  return new Promise((resolve, reject) => {
    const client = protocol === 'https:' ? https : http;
    const req = client.request(target, {
      method: request.method ?? (body ? 'POST' : 'GET'),
      // A retry after a stale kept connection opens a new one.
      agent: fresh ? false : agents[protocol],
      headers: { ...request.headers, ...(body ? { 'content-length': String(body.length) } : {}) },
    });
    const timer = setTimeout(() => req.destroy(new OutboundTimeout(request.timeoutMs)), request.timeoutMs);
    let answered = false;
    const fail = (error: Error) => {
      clearTimeout(timer);
      if (error instanceof OutboundTimeout) reject(error);
      else if (
        !fresh &&
        !answered &&
        req.reusedSocket &&
        (error as NodeJS.ErrnoException).code === 'ECONNRESET'
      )
        reject(new StaleConnection());
      else reject(new Error(`The request to ${target.host} failed: ${error.message}`, { cause: error }));
    };
    req.on('error', fail);
    req.on('response', (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) response.destroy(new Error(`An answer over ${MAX_ANSWER_BYTES} bytes`));
        else chunks.push(chunk);
      });
      response.on('error', fail);
      response.on('end', () => {
        clearTimeout(timer);
        const status = response.statusCode ?? 0;
        resolve({ status, ok: status >= 200 && status < 300, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.end(body);
  });
}

/** The answer's body as JSON, or null when it is empty or not JSON. */
export function answerJson<T>(answer: OutboundAnswer): T | null {
  try {
    return answer.text ? (JSON.parse(answer.text) as T) : null;
  } catch {
    return null;
  }
}

/** What a network failure's code means, for the reasons staff read. */
const NETWORK_FAILURES: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  ENOTFOUND: 'the host name was not found',
  EAI_AGAIN: 'the host name could not be looked up',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  ETIMEDOUT: 'the connection timed out',
  EPIPE: 'the connection was closed',
};

/**
 * Why a request got no answer, in words a person reads on a failed message or command: "No answer
 * within 10000 ms", or "the connection was refused (ECONNREFUSED)".
 */
export function outboundFailure(error: unknown): string {
  if (error instanceof OutboundTimeout) return error.message;
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  if (code) return `${NETWORK_FAILURES[code] ?? 'the request failed'} (${code})`;
  if (typeof cause?.message === 'string' && cause.message) return cause.message;
  return error instanceof Error ? error.message : String(error);
}
