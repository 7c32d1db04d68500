import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Save } from 'lucide-react';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import {
  EMAIL_PROVIDERS,
  type MessagingSettings,
  type MessagingSettingsBody,
  messagingSettingsEndpoints,
  SMS_PROVIDERS,
  WHATSAPP_PROVIDERS,
} from '@/contracts/messaging-settings';
import { FormAlert } from '@/web/components/form-alert';
import { FormField } from '@/web/components/form-field';
import { Spinner } from '@/web/components/loaders';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input } from '@/web/components/ui/input';
import { NativeSelect } from '@/web/components/ui/native-select';
import { Switch } from '@/web/components/ui/switch';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { formatDateTime } from '@/web/lib/format';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage, fieldErrors } from '@/web/lib/queryClient';
import { CopyableUrl, SecretField, TestSend } from './provider-parts';

const PROVIDER_LABELS: Record<string, string> = {
  simulator: 'Simulator (nothing leaves this server)',
  http: "SMS gateway over HTTP (Africa's Talking style)",
  cloud: 'WhatsApp Cloud API',
  smtp: 'SMTP server',
};

const TEXT_FIELDS = [
  'smsUrl',
  'smsUsername',
  'smsSenderId',
  'smsCostPerSegment',
  'smsRatePerSecond',
  'whatsappApiUrl',
  'whatsappPhoneNumberId',
  'whatsappRatePerSecond',
  'smtpHost',
  'smtpPort',
  'smtpUser',
  'emailFrom',
  'emailRatePerSecond',
  'simulatorFailureRate',
  'aiBaseUrl',
  'aiModel',
] as const;
const SECRET_FIELDS = [
  'smsApiKey',
  'whatsappAccessToken',
  'whatsappAppSecret',
  'whatsappVerifyToken',
  'smtpPassword',
  'aiApiKey',
] as const;
type TextField = (typeof TEXT_FIELDS)[number];
type SecretName = (typeof SECRET_FIELDS)[number];

export interface ProvidersDraft extends Record<TextField | SecretName, string> {
  smsProvider: MessagingSettings['smsProvider'];
  whatsappProvider: MessagingSettings['whatsappProvider'];
  emailProvider: MessagingSettings['emailProvider'];
  smtpSecure: boolean;
}

export function draftOf(settings: MessagingSettings): ProvidersDraft {
  const text = Object.fromEntries(
    TEXT_FIELDS.map((field) => [field, settings[field] === null ? '' : String(settings[field])]),
  ) as Record<TextField, string>;
  const secrets = Object.fromEntries(SECRET_FIELDS.map((field) => [field, ''])) as Record<SecretName, string>;
  return {
    ...text,
    ...secrets,
    smsProvider: settings.smsProvider,
    whatsappProvider: settings.whatsappProvider,
    emailProvider: settings.emailProvider,
    smtpSecure: settings.smtpSecure,
  };
}

/** The body for a draft: blanks are null, numbers the browser cannot read go as given for the server to name, and a secret left empty is kept. */
export function bodyOf(draft: ProvidersDraft): MessagingSettingsBody {
  const text = (value: string) => value.trim() || null;
  const number = (value: string) => (value.trim() === '' ? Number.NaN : Number(value));
  const optionalNumber = (value: string) => (value.trim() === '' ? null : Number(value));
  const secrets = Object.fromEntries(
    SECRET_FIELDS.filter((field) => draft[field]).map((field) => [field, draft[field]]),
  );
  return {
    smsProvider: draft.smsProvider,
    smsUrl: text(draft.smsUrl),
    smsUsername: text(draft.smsUsername),
    smsSenderId: text(draft.smsSenderId),
    smsCostPerSegment: number(draft.smsCostPerSegment),
    smsRatePerSecond: number(draft.smsRatePerSecond),
    whatsappProvider: draft.whatsappProvider,
    whatsappApiUrl: text(draft.whatsappApiUrl),
    whatsappPhoneNumberId: text(draft.whatsappPhoneNumberId),
    whatsappRatePerSecond: number(draft.whatsappRatePerSecond),
    emailProvider: draft.emailProvider,
    smtpHost: text(draft.smtpHost),
    smtpPort: optionalNumber(draft.smtpPort),
    smtpSecure: draft.smtpSecure,
    smtpUser: text(draft.smtpUser),
    emailFrom: text(draft.emailFrom),
    emailRatePerSecond: number(draft.emailRatePerSecond),
    simulatorFailureRate: number(draft.simulatorFailureRate),
    aiBaseUrl: text(draft.aiBaseUrl),
    aiModel: text(draft.aiModel),
    ...secrets,
  };
}

/**
 * The Providers tab of /communications (administrators): which provider each channel uses, their
 * addresses and credentials (shown only as Set or Not set), rate limits, the addresses to give
 * the providers for their callbacks, a test send per channel, and the optional AI endpoint.
 */
export function ProvidersTab() {
  const client = useQueryClient();
  const settings = useQuery({
    queryKey: queryKeys.messages.settings(),
    queryFn: () => api(messagingSettingsEndpoints.settings),
  });
  const [draft, setDraft] = useState<ProvidersDraft | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [alert, setAlert] = useState<string | null>(null);
  useEffect(() => {
    if (settings.data && !draft) setDraft(draftOf(settings.data));
  }, [settings.data, draft]);
  const save = useMutation({
    mutationFn: (body: MessagingSettingsBody) => api(messagingSettingsEndpoints.updateSettings, { body }),
    onSuccess: (saved) => {
      client.setQueryData(queryKeys.messages.settings(), saved);
      setDraft(draftOf(saved));
      setErrors({});
      toast({ title: 'Messaging providers saved' });
    },
    onError: (failure) => {
      const fields = fieldErrors(failure);
      setErrors(fields);
      setAlert(Object.keys(fields).length ? 'Some fields need attention.' : errorMessage(failure));
    },
  });

  if (!settings.data || !draft) {
    if (settings.error)
      return (
        <p role="alert" className="text-destructive text-sm">
          The settings could not be loaded: {errorMessage(settings.error)}
        </p>
      );
    return <p className="text-muted-foreground text-sm">Loading the settings…</p>;
  }
  const saved = settings.data;
  const set = <K extends keyof ProvidersDraft>(field: K, value: ProvidersDraft[K]) => {
    setDraft({ ...draft, [field]: value });
    setErrors((current) => ({ ...current, [field]: '' }));
  };
  const field = (name: TextField, label: string, hint?: ReactNode, type = 'text') => (
    <FormField id={`messaging-${name}`} label={label} error={errors[name] || undefined} hint={hint}>
      {(control) => (
        <Input
          {...control}
          type={type}
          autoComplete="off"
          value={draft[name]}
          onChange={(event) => set(name, event.target.value)}
          data-testid={`input-messaging-${name}`}
        />
      )}
    </FormField>
  );
  const secret = (name: SecretName, label: string) => (
    <SecretField
      id={`messaging-${name}`}
      label={label}
      isSet={saved[`${name}Set`]}
      value={draft[name]}
      error={errors[name] || undefined}
      onChange={(value) => set(name, value)}
    />
  );
  const choice = <K extends 'smsProvider' | 'whatsappProvider' | 'emailProvider'>(
    name: K,
    options: readonly ProvidersDraft[K][],
  ) => (
    <FormField id={`messaging-${name}`} label="Provider" error={errors[name] || undefined}>
      {(control) => (
        <NativeSelect
          {...control}
          value={draft[name]}
          onChange={(event) => set(name, event.target.value as ProvidersDraft[K])}
          data-testid={`select-messaging-${name}`}
        >
          {options.map((option) => (
            <option key={option} value={option}>
              {PROVIDER_LABELS[option]}
            </option>
          ))}
        </NativeSelect>
      )}
    </FormField>
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    save.mutate(bodyOf(draft));
  };
  const section = (title: string, description: ReactNode, children: ReactNode, testId: string) => (
    <Card data-testid={testId}>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-4 md:grid-cols-2">{children}</CardContent>
    </Card>
  );

  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label="Messaging providers">
      <FormAlert message={alert} />
      {section(
        'SMS',
        'Reminders, tokens and receipts by text message.',
        <>
          {choice('smsProvider', SMS_PROVIDERS)}
          {field('smsRatePerSecond', 'Messages per second', 'The sender never goes faster than this.')}
          {draft.smsProvider === 'http' && (
            <>
              {field(
                'smsUrl',
                'Gateway URL',
                'e.g. https://api.africastalking.com/version1/messaging',
                'url',
              )}
              {field('smsUsername', 'Username')}
              {secret('smsApiKey', 'API key')}
              {field(
                'smsSenderId',
                'Sender id',
                'Up to 11 letters or digits; the gateway’s default when empty.',
              )}
              <CopyableUrl
                label="Delivery report URL"
                url={saved.smsCallbackUrl}
                testId="text-sms-callback-url"
              />
            </>
          )}
          {field('smsCostPerSegment', 'Cost per segment (minor units)', 'For the cost estimate of a send.')}
          <TestSend channel="sms" placeholder="+254712345678" />
        </>,
        'card-messaging-sms',
      )}
      {section(
        'WhatsApp',
        'Messages and the assistant’s conversations on WhatsApp.',
        <>
          {choice('whatsappProvider', WHATSAPP_PROVIDERS)}
          {field('whatsappRatePerSecond', 'Messages per second', 'The sender never goes faster than this.')}
          {draft.whatsappProvider === 'cloud' && (
            <>
              {field('whatsappApiUrl', 'Graph API URL', 'e.g. https://graph.facebook.com/v21.0', 'url')}
              {field('whatsappPhoneNumberId', 'Phone number id')}
              {secret('whatsappAccessToken', 'Access token')}
              {secret('whatsappAppSecret', 'App secret (webhook signatures)')}
              {secret('whatsappVerifyToken', 'Verify token (webhook handshake)')}
            </>
          )}
          <CopyableUrl
            label="Webhook callback URL"
            url={saved.whatsappWebhookUrl}
            testId="text-whatsapp-webhook-url"
          />
          <TestSend channel="whatsapp" placeholder="+254712345678" />
        </>,
        'card-messaging-whatsapp',
      )}
      {section(
        'E-mail',
        'Messages to customers who gave an e-mail address and consented to e-mail.',
        <>
          {choice('emailProvider', EMAIL_PROVIDERS)}
          {field('emailRatePerSecond', 'Messages per second', 'The sender never goes faster than this.')}
          {draft.emailProvider === 'smtp' && (
            <>
              {field('smtpHost', 'SMTP host')}
              {field('smtpPort', 'Port', '587 (STARTTLS) or 465 (TLS); empty for the default.')}
              {field('smtpUser', 'User')}
              {secret('smtpPassword', 'Password')}
              {field('emailFrom', 'Sender address', undefined, 'email')}
              <div className="flex items-center gap-2 self-end pb-2">
                <Switch
                  id="messaging-smtpSecure"
                  checked={draft.smtpSecure}
                  onCheckedChange={(checked) => set('smtpSecure', checked)}
                  data-testid="switch-messaging-smtpSecure"
                />
                <label htmlFor="messaging-smtpSecure" className="text-sm">
                  TLS from the start (port 465)
                </label>
              </div>
            </>
          )}
          <TestSend channel="email" placeholder="someone@example.com" />
        </>,
        'card-messaging-email',
      )}
      {section(
        'Simulator and AI endpoint',
        'The simulator stands in for any channel without a provider. The AI endpoint (OpenAI-compatible, optional) only classifies what customers write; the figures always come from their own records.',
        <>
          {field(
            'simulatorFailureRate',
            'Simulator failure rate (0 to 1)',
            '0.2 fails one attempt in five, to rehearse retries.',
          )}
          <div />
          {field('aiBaseUrl', 'AI endpoint URL', 'e.g. https://api.openai.com/v1; empty for none.', 'url')}
          {field('aiModel', 'Model')}
          {secret('aiApiKey', 'API key')}
        </>,
        'card-messaging-ai',
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={save.isPending} data-testid="button-save-messaging">
          {save.isPending ? <Spinner className="size-4" /> : <Save aria-hidden="true" />} Save
        </Button>
        {saved.updatedAt && (
          <span className="text-muted-foreground text-xs">
            Last changed {formatDateTime(saved.updatedAt)}.
          </span>
        )}
      </div>
    </form>
  );
}
