import { FakeHttpServer, json } from './fake-http';

export interface GraphRequest {
  path: string;
  authorization: string | null;
  idempotencyKey: string | null;
  body: Record<string, unknown>;
}

/**
 * A local stand-in for the WhatsApp Cloud API's send side (the Graph API): `POST
 * /{version}/{phone number id}/messages` with `Authorization: Bearer <token>`. A wrong token is
 * answered 401 with Meta's error shape (code 190); a wrong phone number id 400 (code 100). A
 * request whose `Idempotency-Key` it has seen answers the first wamid and is not sent again:
 * `sent` counts each message once, `requests` every call.
 */
export class FakeWhatsappGraph {
  readonly requests: GraphRequest[] = [];
  readonly sent = new Map<string, { body: Record<string, unknown>; wamid: string }>();
  /** The next N requests are answered with this status and Meta error code (then it stops). */
  failNext = 0;
  failStatus = 500;
  failCode = 131000;
  private readonly http = new FakeHttpServer(async (req, text, res) => {
    const header = (name: string) => {
      const value = req.headers[name];
      return (Array.isArray(value) ? value[0] : value) ?? null;
    };
    const body = JSON.parse(text || '{}') as Record<string, unknown>;
    const request: GraphRequest = {
      path: req.url ?? '',
      authorization: header('authorization'),
      idempotencyKey: header('idempotency-key'),
      body,
    };
    this.requests.push(request);
    const error = (status: number, code: number, message: string) =>
      json(res, status, { error: { message, type: 'OAuthException', code, fbtrace_id: 'fake' } });
    if (request.authorization !== `Bearer ${this.token}`)
      return error(401, 190, 'Error validating access token: The session is invalid.');
    if (request.path !== `/v21.0/${this.phoneNumberId}/messages`)
      return error(400, 100, 'Unsupported post request. Object with ID does not exist');
    if (this.failNext > 0) {
      this.failNext -= 1;
      return error(this.failStatus, this.failCode, 'Something went wrong');
    }
    const key = request.idempotencyKey ?? `anon-${this.requests.length}`;
    let message = this.sent.get(key);
    if (!message) {
      message = { body, wamid: `wamid.FAKE${String(this.sent.size + 1).padStart(6, '0')}` };
      this.sent.set(key, message);
    }
    json(res, 200, {
      messaging_product: 'whatsapp',
      contacts: [{ input: body.to, wa_id: body.to }],
      messages: [{ id: message.wamid }],
    });
  });

  constructor(
    readonly token = 'EAAG-test-token',
    readonly phoneNumberId = '1234567890',
  ) {}

  async start(): Promise<string> {
    await this.http.start();
    return this.apiUrl;
  }

  /** What goes in `whatsapp_api_url`. */
  get apiUrl(): string {
    return `${this.http.base}/v21.0`;
  }

  stop(): Promise<void> {
    return this.http.stop();
  }
}
