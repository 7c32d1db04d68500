import { FakeHttpServer, json } from './fake-http';

export interface SmsRequest {
  apiKey: string | null;
  idempotencyKey: string | null;
  contentType: string | null;
  form: Record<string, string>;
}

/**
 * A local stand-in for an Africa's Talking-style SMS gateway (tests never reach the internet):
 * `POST /version1/messaging` with a form (`username`, `to`, `message`, `from`) and the `apiKey`
 * header. A wrong key or username is answered 401. Requests with an `Idempotency-Key` it has seen
 * are answered as the first one was and not sent again: `sent` counts each message once,
 * `requests` every call.
 */
export class FakeSmsGateway {
  readonly requests: SmsRequest[] = [];
  /** Messages actually sent, by idempotency key (or a fresh id when none was given). */
  readonly sent = new Map<string, { to: string; message: string; from: string | null; messageId: string }>();
  /** The next N requests are answered with this HTTP status (then it stops). */
  failNext = 0;
  failStatus = 503;
  /** Answer each recipient with this status code and text (e.g. 403 InvalidPhoneNumber). */
  recipientStatus: { code: number; status: string } = { code: 101, status: 'Success' };
  private readonly http = new FakeHttpServer(async (req, body, res) => {
    const header = (name: string) => {
      const value = req.headers[name];
      return (Array.isArray(value) ? value[0] : value) ?? null;
    };
    const form = Object.fromEntries(new URLSearchParams(body));
    const request: SmsRequest = {
      apiKey: header('apikey'),
      idempotencyKey: header('idempotency-key'),
      contentType: header('content-type'),
      form,
    };
    this.requests.push(request);
    if (request.apiKey !== this.apiKey || form.username !== this.username)
      return json(res, 401, 'The supplied authentication is invalid');
    if (this.failNext > 0) {
      this.failNext -= 1;
      return json(res, this.failStatus, { message: 'gateway unavailable' });
    }
    const key = request.idempotencyKey ?? `anon-${this.requests.length}`;
    let message = this.sent.get(key);
    const { code, status } = this.recipientStatus;
    if (!message && code < 200) {
      message = {
        to: form.to ?? '',
        message: form.message ?? '',
        from: form.from ?? null,
        messageId: `ATXid_${this.sent.size + 1}`,
      };
      this.sent.set(key, message);
    }
    json(res, 201, {
      SMSMessageData: {
        Message: code < 200 ? 'Sent to 1/1 Total Cost: KES 0.8000' : 'Sent to 0/1 Total Cost: 0',
        Recipients: [
          {
            statusCode: code,
            number: form.to,
            status,
            cost: 'KES 0.8000',
            messageId: message?.messageId ?? 'None',
          },
        ],
      },
    });
  });

  constructor(
    readonly username = 'sandbox',
    readonly apiKey = 'at-test-key-123',
  ) {}

  async start(): Promise<string> {
    await this.http.start();
    return this.url;
  }

  get url(): string {
    return `${this.http.base}/version1/messaging`;
  }

  stop(): Promise<void> {
    return this.http.stop();
  }
}
