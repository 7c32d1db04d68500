import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signBody, verifySignature } from '../../src/server/modules/devices/control/signature';

export interface LockApiRequest {
  signatureValid: boolean;
  idempotencyKey: string | null;
  body: {
    type: string;
    commandId?: string;
    command?: string;
    attempt?: number;
    device?: { serialNumber: string };
  };
}

/**
 * A local stand-in for a Knox Guard-style lock API (tests never reach the internet): it checks
 * each request's HMAC signature with the shared secret (a wrong one is answered 401, as a real
 * provider would), records every request for the test to read, and answers `acknowledged`,
 * `accepted` (the test then calls back with `acknowledge`), or a failure when told to.
 */
export class FakeLockApi {
  readonly requests: LockApiRequest[] = [];
  /** The next N commands are answered with this HTTP status (then it stops). */
  failNext = 0;
  failStatus = 503;
  /** Answer commands `accepted` (a callback follows) instead of `acknowledged`. */
  mode: 'acknowledge' | 'accept' = 'acknowledge';
  private server: Server | null = null;

  constructor(readonly secret: string) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: String(error) }));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return this.url;
  }

  get url(): string {
    const address = this.server?.address() as AddressInfo;
    return `http://127.0.0.1:${address.port}/v1/commands`;
  }

  /** Commands (not pings) received with a valid signature. */
  get commands(): LockApiRequest[] {
    return this.requests.filter((request) => request.body.type === 'command' && request.signatureValid);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The signed acknowledgement the provider would send the app's callback, as body and header. */
  acknowledgement(
    commandId: string,
    status: 'acknowledged' | 'failed',
    now = new Date(),
    error?: string,
  ): { body: string; signature: string } {
    const body = JSON.stringify({ commandId, status, ...(error ? { error } : {}) });
    return { body, signature: signBody(this.secret, body, now) };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const header = req.headers['x-signature'];
    const signatureValid = verifySignature(
      this.secret,
      text,
      Array.isArray(header) ? header[0] : header,
      new Date(),
      3600 * 24 * 400,
    );
    const body = JSON.parse(text) as LockApiRequest['body'];
    const key = req.headers['idempotency-key'];
    this.requests.push({ signatureValid, idempotencyKey: typeof key === 'string' ? key : null, body });
    const answer = (status: number, json: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(json));
    };
    if (!signatureValid) return answer(401, { message: 'Bad signature' });
    if (body.type === 'ping') return answer(200, { status: 'ok' });
    if (this.failNext > 0) {
      this.failNext -= 1;
      return answer(this.failStatus, { message: 'Device service unavailable' });
    }
    return answer(200, {
      status: this.mode === 'accept' ? 'accepted' : 'acknowledged',
      commandId: body.commandId,
    });
  }
}
