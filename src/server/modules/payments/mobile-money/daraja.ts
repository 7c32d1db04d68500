import { minorUnitDigits } from '../../../../domain';
import type { Config } from '../../../config';
import type { Clock } from '../../../context';
import {
  answerJson,
  type OutboundAnswer,
  type OutboundRequest,
  outboundFailure,
  outboundRequest,
} from '../../../outbound-http';
import { type MobileMoneyProvider, ProviderError, type PushAccepted, type PushRequest } from './provider';
import { providerTimeOf } from './time';

interface TokenAnswer {
  access_token?: string;
  expires_in?: string | number;
}

interface PushAnswer {
  MerchantRequestID?: string;
  CheckoutRequestID?: string;
  ResponseCode?: string;
  ResponseDescription?: string;
  errorMessage?: string;
}

/**
 * Safaricom's Daraja API (Lipa na M-Pesa Online): an OAuth token from the consumer key and
 * secret (kept until shortly before it expires), then `stkpush/v1/processrequest` with the
 * paybill's password (base64 of short code, passkey and timestamp). Amounts are whole shillings.
 */
export class DarajaProvider implements MobileMoneyProvider {
  readonly name = 'daraja';
  private token: { value: string; until: number } | null = null;

  constructor(
    private readonly config: Pick<
      Config,
      | 'MPESA_BASE_URL'
      | 'MPESA_CONSUMER_KEY'
      | 'MPESA_CONSUMER_SECRET'
      | 'MPESA_SHORTCODE'
      | 'MPESA_PASSKEY'
      | 'MPESA_TIMEOUT_MS'
    >,
    private readonly clock: Clock,
  ) {}

  close(): void {}

  async initiatePush(request: PushRequest): Promise<PushAccepted> {
    const { MPESA_SHORTCODE: shortCode, MPESA_PASSKEY: passkey } = this.config;
    if (!shortCode || !passkey)
      throw new ProviderError('M-Pesa is not configured: MPESA_SHORTCODE and MPESA_PASSKEY are needed');
    const timestamp = providerTimeOf(this.clock.now(), request.timeZone);
    const msisdn = request.phone.replace(/\D/g, '');
    const body = {
      BusinessShortCode: shortCode,
      Password: Buffer.from(`${shortCode}${passkey}${timestamp}`).toString('base64'),
      Timestamp: timestamp,
      TransactionType: 'CustomerPayBillOnline',
      Amount: request.amount / 10 ** minorUnitDigits(request.currency),
      PartyA: msisdn,
      PartyB: shortCode,
      PhoneNumber: msisdn,
      CallBackURL: request.callbackUrl,
      AccountReference: request.accountReference.slice(0, 12),
      TransactionDesc: request.description.slice(0, 13),
    };
    let answer = await this.send(body, await this.accessToken());
    if (answer.status === 401) {
      this.token = null; // revoked or expired early: one more try with a new token
      answer = await this.send(body, await this.accessToken());
    }
    const json = answerJson<PushAnswer>(answer) ?? {};
    if (!answer.ok || json.ResponseCode !== '0' || !json.CheckoutRequestID) {
      const why = json.errorMessage ?? json.ResponseDescription ?? `HTTP ${answer.status}`;
      throw new ProviderError(`M-Pesa refused the push: ${why}`);
    }
    return {
      checkoutRequestId: json.CheckoutRequestID,
      ...(json.MerchantRequestID ? { merchantRequestId: json.MerchantRequestID } : {}),
    };
  }

  private async send(body: unknown, token: string): Promise<OutboundAnswer> {
    return this.call(`${this.base()}/mpesa/stkpush/v1/processrequest`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  private async accessToken(): Promise<string> {
    const now = this.clock.now().getTime();
    if (this.token && this.token.until > now) return this.token.value;
    const { MPESA_CONSUMER_KEY: key, MPESA_CONSUMER_SECRET: secret } = this.config;
    if (!key || !secret)
      throw new ProviderError(
        'M-Pesa is not configured: MPESA_CONSUMER_KEY and MPESA_CONSUMER_SECRET are needed',
      );
    const answer = await this.call(`${this.base()}/oauth/v1/generate?grant_type=client_credentials`, {
      headers: { authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}` },
    });
    const json = answerJson<TokenAnswer>(answer) ?? {};
    if (!answer.ok || !json.access_token)
      throw new ProviderError(`M-Pesa refused the credentials (HTTP ${answer.status})`);
    const seconds = Number(json.expires_in ?? 3599);
    this.token = { value: json.access_token, until: now + Math.max(0, seconds - 60) * 1000 };
    return json.access_token;
  }

  private base(): string {
    return this.config.MPESA_BASE_URL.replace(/\/+$/, '');
  }

  private async call(url: string, init: Omit<OutboundRequest, 'timeoutMs'>): Promise<OutboundAnswer> {
    try {
      return await outboundRequest(url, { ...init, timeoutMs: this.config.MPESA_TIMEOUT_MS });
    } catch (error) {
      throw new ProviderError(`M-Pesa could not be reached: ${outboundFailure(error)}`);
    }
  }
}
