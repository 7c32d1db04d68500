import type { MessageChannel } from '../../../../contracts/messages';
import type { AppServices } from '../../../context';
import type { MessageProvider, ProviderSet } from '../provider';
import { type MessagingSettingsRow, secretOf } from '../settings';
import { simulatorProvider } from './simulator';
import { smsHttpProvider } from './sms-http';
import { smtpProvider } from './smtp';
import { whatsappCloudProvider } from './whatsapp-cloud';

type Keys = Pick<AppServices, 'keyring'>;

/**
 * The provider a channel's messages go to, from the settings, its credentials decrypted: the
 * simulator unless a real one is chosen. A real one chosen without its credential is built with an
 * empty one: the gateway refuses it, and the message's failure reason says why.
 */
export function providerFor(ctx: Keys, row: MessagingSettingsRow, channel: MessageChannel): MessageProvider {
  const simulator = () => simulatorProvider({ failureRate: row.simulatorFailureRate });
  if (channel === 'sms' && row.smsProvider === 'http' && row.smsUrl)
    return smsHttpProvider({
      url: row.smsUrl,
      username: row.smsUsername ?? '',
      apiKey: secretOf(ctx, row, 'smsApiKey') ?? '',
      senderId: row.smsSenderId,
    });
  if (channel === 'whatsapp' && row.whatsappProvider === 'cloud' && row.whatsappApiUrl)
    return whatsappCloudProvider({
      apiUrl: row.whatsappApiUrl,
      phoneNumberId: row.whatsappPhoneNumberId ?? '',
      accessToken: secretOf(ctx, row, 'whatsappAccessToken') ?? '',
    });
  if (channel === 'email' && row.emailProvider === 'smtp' && row.smtpHost && row.emailFrom)
    return smtpProvider({
      host: row.smtpHost,
      port: row.smtpPort,
      secure: row.smtpSecure === 'true',
      user: row.smtpUser,
      password: secretOf(ctx, row, 'smtpPassword'),
      from: row.emailFrom,
    });
  return simulator();
}

/** The channel's rate limit from the settings (messages per second). */
export function rateOf(row: MessagingSettingsRow, channel: MessageChannel): number {
  if (channel === 'sms') return row.smsRatePerSecond;
  if (channel === 'whatsapp') return row.whatsappRatePerSecond;
  return row.emailRatePerSecond;
}

/**
 * Every channel's provider and rate for one sender run (the settings read once at its start),
 * each built when first asked for, and closed at the run's end (SMTP's pool).
 */
export function configuredProviders(ctx: Keys, row: MessagingSettingsRow): ProviderSet {
  const built = new Map<MessageChannel, MessageProvider>();
  return {
    providerFor(channel) {
      let provider = built.get(channel);
      if (!provider) {
        provider = providerFor(ctx, row, channel);
        built.set(channel, provider);
      }
      return provider;
    },
    ratePerSecond: (channel) => rateOf(row, channel),
    async close() {
      await Promise.all([...built.values()].map((provider) => provider.close?.()));
    },
  };
}
