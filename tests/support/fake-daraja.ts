import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeDarajaOptions {
  consumerKey: string;
  consumerSecret: string;
  shortCode: string;
  passkey: string;
}

export interface StkRequest {
  BusinessShortCode: string;
  Password: string;
  Timestamp: string;
  TransactionType: string;
  Amount: number;
  PartyA: string;
  PartyB: string;
  PhoneNumber: string;
  CallBackURL: string;
  AccountReference: string;
  TransactionDesc: string;
  checkoutRequestId: string;
  merchantRequestId: string;
}

/**
 * A local stand-in for Safaricom's Daraja API (tests never reach the internet): OAuth client
 * credentials and STK push requests, checked as Daraja checks them (basic auth, bearer token,
 * the password from short code, passkey and timestamp), recorded for the test to read; and the
 * provider's callback, fired at the app when the test says, at the CallBackURL it was given (its
 * origin replaced by `callbackOrigin`, the app's real address in the test).
 */
export class FakeDaraja {
  readonly pushes: StkRequest[] = [];
  tokensIssued = 0;
  /** The next push is refused with this Daraja error (then cleared). */
  refuseNext: string | null = null;
  callbackOrigin: string | null = null;
  private readonly tokens = new Set<string>();
  private server: Server | null = null;

  constructor(readonly options: FakeDarajaOptions) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ errorMessage: String(error) }));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return this.url;
  }

  get url(): string {
    const address = this.server?.address() as AddressInfo;
    return `http://127.0.0.1:${address.port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** Sends the result of a push to the app, as Daraja does once the customer answered on the phone. */
  async complete(
    push: StkRequest,
    outcome:
      | { success: true; receipt?: string; amount?: number }
      | { success: false; code?: number; desc?: string },
  ): Promise<{ status: number; body: unknown; receipt: string | null }> {
    const receipt = outcome.success
      ? (outcome.receipt ?? `FK${randomBytes(4).toString('hex').toUpperCase()}`)
      : null;
    const stkCallback = outcome.success
      ? {
          MerchantRequestID: push.merchantRequestId,
          CheckoutRequestID: push.checkoutRequestId,
          ResultCode: 0,
          ResultDesc: 'The service request is processed successfully.',
          CallbackMetadata: {
            Item: [
              { Name: 'Amount', Value: outcome.amount ?? push.Amount },
              { Name: 'MpesaReceiptNumber', Value: receipt },
              { Name: 'Balance' },
              { Name: 'TransactionDate', Value: Number(push.Timestamp) },
              { Name: 'PhoneNumber', Value: Number(push.PhoneNumber) },
            ],
          },
        }
      : {
          MerchantRequestID: push.merchantRequestId,
          CheckoutRequestID: push.checkoutRequestId,
          ResultCode: outcome.code ?? 1032,
          ResultDesc: outcome.desc ?? 'Request cancelled by user',
        };
    const target = new URL(push.CallBackURL);
    const url = this.callbackOrigin
      ? new URL(`${target.pathname}${target.search}`, this.callbackOrigin)
      : target;
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Body: { stkCallback } }),
    });
    return { status: response.status, body: await response.json().catch(() => null), receipt };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && url.pathname === '/oauth/v1/generate') {
      const expected = `Basic ${Buffer.from(`${this.options.consumerKey}:${this.options.consumerSecret}`).toString('base64')}`;
      if (
        url.searchParams.get('grant_type') !== 'client_credentials' ||
        req.headers.authorization !== expected
      )
        return send(400, { errorCode: '400.008.01', errorMessage: 'Invalid Authentication passed' });
      const token = randomBytes(16).toString('hex');
      this.tokens.add(token);
      this.tokensIssued += 1;
      return send(200, { access_token: token, expires_in: '3599' });
    }
    if (req.method === 'POST' && url.pathname === '/mpesa/stkpush/v1/processrequest') {
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (!bearer || !this.tokens.has(bearer))
        return send(401, { errorCode: '404.001.03', errorMessage: 'Invalid Access Token' });
      const body = JSON.parse(await readBody(req)) as Omit<
        StkRequest,
        'checkoutRequestId' | 'merchantRequestId'
      >;
      const problem = this.check(body);
      if (problem)
        return send(400, { errorCode: '400.002.02', errorMessage: `Bad Request - Invalid ${problem}` });
      if (this.refuseNext) {
        const message = this.refuseNext;
        this.refuseNext = null;
        return send(500, { errorCode: '500.001.1001', errorMessage: message });
      }
      const push: StkRequest = {
        ...body,
        checkoutRequestId: `ws_CO_${randomUUID().replaceAll('-', '')}`,
        merchantRequestId: `${Math.floor(Math.random() * 1e5)}-${Math.floor(Math.random() * 1e8)}-1`,
      };
      this.pushes.push(push);
      return send(200, {
        MerchantRequestID: push.merchantRequestId,
        CheckoutRequestID: push.checkoutRequestId,
        ResponseCode: '0',
        ResponseDescription: 'Success. Request accepted for processing',
        CustomerMessage: 'Success. Request accepted for processing',
      });
    }
    return send(404, { errorMessage: 'Not found' });
  }

  /** What Daraja refuses in a push request, or null. */
  private check(body: Omit<StkRequest, 'checkoutRequestId' | 'merchantRequestId'>): string | null {
    const { shortCode, passkey } = this.options;
    if (body.BusinessShortCode !== shortCode) return 'BusinessShortCode';
    if (!/^\d{14}$/.test(body.Timestamp)) return 'Timestamp';
    if (body.Password !== Buffer.from(`${shortCode}${passkey}${body.Timestamp}`).toString('base64'))
      return 'Password';
    if (body.TransactionType !== 'CustomerPayBillOnline') return 'TransactionType';
    if (!Number.isInteger(body.Amount) || body.Amount < 1) return 'Amount';
    if (!/^2547\d{8}$|^2541\d{8}$/.test(body.PartyA) || body.PhoneNumber !== body.PartyA)
      return 'PhoneNumber';
    if (body.PartyB !== shortCode) return 'PartyB';
    try {
      new URL(body.CallBackURL);
    } catch {
      return 'CallBackURL';
    }
    if (!body.AccountReference || body.AccountReference.length > 12) return 'AccountReference';
    if (!body.TransactionDesc || body.TransactionDesc.length > 13) return 'TransactionDesc';
    return null;
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
