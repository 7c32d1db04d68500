import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FlaskConical, Save } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import {
  type ControlSettings,
  type ControlSettingsBody,
  deviceControlEndpoints,
  LOCK_PROVIDERS,
  type ProviderTestResult,
} from '@/contracts/device-control';
import { FormAlert } from '@/web/components/form-alert';
import { FormField } from '@/web/components/form-field';
import { Spinner } from '@/web/components/loaders';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input } from '@/web/components/ui/input';
import { NativeSelect } from '@/web/components/ui/native-select';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { formatDateTime } from '@/web/lib/format';
import { invalidate } from '@/web/lib/mutation-effects';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage, fieldErrors } from '@/web/lib/queryClient';
import { PROVIDER_LABELS } from './format';

interface Draft {
  provider: (typeof LOCK_PROVIDERS)[number];
  lockApiUrl: string;
  lockApiSecret: string;
  simulatorLatencyMs: string;
  simulatorFailureRate: string;
  maxAttempts: string;
  retryBaseSeconds: string;
}

const draftOf = (settings: ControlSettings): Draft => ({
  provider: settings.provider,
  lockApiUrl: settings.lockApiUrl ?? '',
  lockApiSecret: '',
  simulatorLatencyMs: String(settings.simulatorLatencyMs),
  simulatorFailureRate: String(settings.simulatorFailureRate),
  maxAttempts: String(settings.maxAttempts),
  retryBaseSeconds: String(settings.retryBaseSeconds),
});

/** The body for a draft; numbers the browser cannot read are sent as given, for the server to name. */
export function settingsBody(draft: Draft): ControlSettingsBody {
  const number = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));
  return {
    provider: draft.provider,
    lockApiUrl: draft.lockApiUrl.trim() || null,
    ...(draft.lockApiSecret ? { lockApiSecret: draft.lockApiSecret } : {}),
    simulatorLatencyMs: number(draft.simulatorLatencyMs),
    simulatorFailureRate: number(draft.simulatorFailureRate),
    maxAttempts: number(draft.maxAttempts),
    retryBaseSeconds: number(draft.retryBaseSeconds),
  };
}

/** The Provider settings tab (administrators): which provider, the lock API's address and secret, the simulator, retries. */
export function ProviderSettings() {
  const client = useQueryClient();
  const settings = useQuery({
    queryKey: queryKeys.deviceControl.settings(),
    queryFn: () => api(deviceControlEndpoints.settings),
  });
  const [draft, setDraft] = useState<Draft | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [tested, setTested] = useState<ProviderTestResult | null>(null);
  useEffect(() => {
    if (settings.data && !draft) setDraft(draftOf(settings.data));
  }, [settings.data, draft]);

  const save = useMutation({
    mutationFn: (body: ControlSettingsBody) => api(deviceControlEndpoints.updateSettings, { body }),
    onSuccess: (saved) => {
      setDraft(draftOf(saved));
      setErrors({});
      void invalidate(client, 'deviceControlSettingsSaved');
      toast({
        title: 'Provider settings saved',
        description: `Commands go to the ${PROVIDER_LABELS[saved.provider]}.`,
      });
    },
    onError: (failure) => {
      const fields = fieldErrors(failure);
      setErrors(fields);
      setAlert(Object.keys(fields).length ? null : errorMessage(failure));
    },
  });
  const test = useMutation({
    mutationFn: () => api(deviceControlEndpoints.testProvider),
    onSuccess: setTested,
    onError: (failure) =>
      setTested({
        ok: false,
        provider: draft?.provider ?? 'simulator',
        latencyMs: 0,
        message: errorMessage(failure),
      }),
  });

  if (settings.isLoading || !draft) {
    if (settings.error)
      return (
        <p role="alert" className="text-destructive text-sm">
          The settings could not be loaded: {errorMessage(settings.error)}
        </p>
      );
    return <p className="text-muted-foreground text-sm">Loading the settings…</p>;
  }
  const set = (field: keyof Draft) => (value: string) => {
    setDraft({ ...draft, [field]: value });
    setErrors((current) => ({ ...current, [field]: '' }));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    setTested(null);
    save.mutate(settingsBody(draft));
  };
  const field = (name: keyof Draft, label: string, hint?: string, type = 'text') => (
    <FormField id={`settings-${name}`} label={label} error={errors[name] || undefined} hint={hint}>
      {(control) => (
        <Input
          {...control}
          type={type}
          autoComplete="off"
          value={draft[name]}
          onChange={(event) => set(name)(event.target.value)}
          data-testid={`input-settings-${name}`}
        />
      )}
    </FormField>
  );

  return (
    <Card data-testid="card-provider-settings">
      <CardHeader>
        <CardTitle>Provider</CardTitle>
        <CardDescription>
          Where lock, unlock and release commands for lock-API phones go. OpenPAYGO units always get codes.
          {settings.data?.updatedAt ? ` Last changed ${formatDateTime(settings.data.updatedAt)}.` : ''}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          onSubmit={submit}
          noValidate
          className="grid grid-cols-1 gap-4 md:grid-cols-2"
          aria-label="Provider settings"
        >
          <FormAlert message={alert} className="md:col-span-2" />
          <FormField id="settings-provider" label="Provider" error={errors.provider || undefined}>
            {(control) => (
              <NativeSelect
                {...control}
                value={draft.provider}
                onChange={(event) => set('provider')(event.target.value)}
                data-testid="select-settings-provider"
              >
                {LOCK_PROVIDERS.map((provider) => (
                  <option key={provider} value={provider}>
                    {PROVIDER_LABELS[provider]}
                  </option>
                ))}
              </NativeSelect>
            )}
          </FormField>
          <div />
          {field('lockApiUrl', 'Lock API URL', 'Signed JSON commands are POSTed here.', 'url')}
          {field(
            'lockApiSecret',
            'Signing secret',
            settings.data?.lockApiSecretSet
              ? 'A secret is stored (never shown). Type a new one to replace it.'
              : 'Shared with the provider: at least 16 characters. Stored encrypted.',
            'password',
          )}
          <p className="text-muted-foreground text-xs md:col-span-2">
            Acknowledgements: the provider POSTs signed JSON to{' '}
            <code className="font-mono">{settings.data?.callbackPath}</code> on this server.
          </p>
          {field('simulatorLatencyMs', 'Simulator latency (ms)', 'How long the simulator takes to answer.')}
          {field(
            'simulatorFailureRate',
            'Simulator failure rate (0 to 1)',
            '0.2 fails one delivery in five.',
          )}
          {field(
            'maxAttempts',
            'Attempts before a command fails',
            'Each failure waits twice as long as the last.',
          )}
          {field('retryBaseSeconds', 'First retry after (seconds)', 'The wait before the second attempt.')}
          <div className="flex flex-wrap gap-2 md:col-span-2">
            <Button type="submit" disabled={save.isPending} data-testid="button-save-settings">
              {save.isPending ? <Spinner className="size-4" /> : <Save aria-hidden="true" />} Save
            </Button>
            <Button
              type="button"
              variant="outline"
              disabled={test.isPending}
              onClick={() => {
                setTested(null);
                test.mutate();
              }}
              data-testid="button-test-provider"
            >
              {test.isPending ? <Spinner className="size-4" /> : <FlaskConical aria-hidden="true" />} Test the
              saved provider
            </Button>
          </div>
          <div aria-live="polite" className="md:col-span-2">
            {tested && (
              <p
                className={tested.ok ? 'text-sm text-success' : 'text-destructive text-sm'}
                data-testid="text-provider-test"
              >
                {tested.ok ? 'It works: ' : 'It failed: '}
                {tested.message}
              </p>
            )}
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
