import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Plus, RotateCw, Save, Trash2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Controller, type FieldError, type UseFormReturn, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { type OrganisationSettings, organisationBody } from '@/contracts/profile';
import { settingsEndpoints } from '@/contracts/settings';
import { FormAlert } from '@/web/components/form-alert';
import { FormInput, FormSearchableSelect } from '@/web/components/form-controls';
import { Spinner } from '@/web/components/loaders';
import type { SelectOption } from '@/web/components/searchable-select';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input } from '@/web/components/ui/input';
import { Skeleton } from '@/web/components/ui/skeleton';
import { toast } from '@/web/hooks/use-toast';
import { api, apiOrNull } from '@/web/lib/api';
import { applyServerError } from '@/web/lib/forms';
import { invalidate } from '@/web/lib/mutation-effects';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';
import { IncomeBandsField } from './income-bands-field';
import { bucketLabels, countryOptions, currencyOptions, timeZoneOptions } from './organisation-options';

type OrganisationInput = z.input<typeof organisationBody>;
type OrganisationOutput = z.output<typeof organisationBody>;
const FIELDS = [
  'name',
  'currency',
  'timeZone',
  'country',
  'delinquencyBuckets',
  'quietHoursStart',
  'quietHoursEnd',
  'aprCap',
  'incomeBands',
  'closeOfBusinessTime',
  'interestAccrualFrom',
] as const;
const MAX_BUCKETS = 10;
/** The two ends of the quiet hours: the same time field twice. */
const QUIET_HOURS = [
  { name: 'quietHoursStart', key: 'start', label: 'From' },
  { name: 'quietHoursEnd', key: 'end', label: 'Until' },
] as const;
/** The settings chosen from long lists: their label, hint and search box, and the ids' middle part. */
const SEARCHED = {
  currency: {
    key: 'currency',
    label: 'Currency',
    hint: "Amounts are kept in this currency's minor unit.",
    searchLabel: 'Search currencies',
  },
  country: { key: 'country', label: 'Country', hint: undefined, searchLabel: 'Search countries' },
  timeZone: {
    key: 'time-zone',
    label: 'Time zone',
    hint: 'Due dates, the end of day and reports follow this time zone.',
    searchLabel: 'Search time zones',
  },
} as const;

/** Organisation settings: every signed-in user reads them; only administrators and the owner save (the server refuses anyone else). */
export function OrganisationCard() {
  const organisation = useQuery({
    queryKey: queryKeys.settings.organisation(),
    queryFn: () => apiOrNull(settingsEndpoints.organisation),
  });
  return (
    <Card data-testid="card-organisation">
      <CardHeader>
        <CardTitle>Organisation</CardTitle>
        <CardDescription>
          Used everywhere money, dates and arrears appear, and by the message sender. Only administrators can
          change them.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {organisation.isLoading ? (
          <div role="status" className="grid grid-cols-1 gap-3">
            <span className="sr-only">Loading organisation settings…</span>
            <Skeleton className="h-9 w-full" />
            <Skeleton className="h-9 w-full" />
            <Skeleton className="h-24 w-full" />
          </div>
        ) : organisation.error || !organisation.data ? (
          <div role="alert" className="grid grid-cols-1 justify-items-start gap-2 text-sm">
            <p className="text-destructive">
              Organisation settings could not be loaded
              {organisation.error ? `: ${errorMessage(organisation.error)}` : '.'}
            </p>
            <Button variant="outline" size="sm" onClick={() => void organisation.refetch()}>
              <RotateCw aria-hidden="true" />
              Try again
            </Button>
          </div>
        ) : (
          <OrganisationForm key={organisation.data.updatedAt} organisation={organisation.data} />
        )}
      </CardContent>
    </Card>
  );
}

function OrganisationForm({ organisation }: { organisation: OrganisationSettings }) {
  const queryClient = useQueryClient();
  const [alert, setAlert] = useState<string | null>(null);
  // Remounts the bucket editor (its typed text) when the form is reset.
  const [resets, setResets] = useState(0);
  const form = useForm<OrganisationInput, unknown, OrganisationOutput>({
    resolver: zodResolver(organisationBody),
    defaultValues: {
      name: organisation.name,
      currency: organisation.currency,
      timeZone: organisation.timeZone,
      country: organisation.country,
      delinquencyBuckets: organisation.delinquencyBuckets,
      quietHoursStart: organisation.quietHoursStart,
      quietHoursEnd: organisation.quietHoursEnd,
      aprCap: organisation.aprCap,
      incomeBands: organisation.incomeBands,
      closeOfBusinessTime: organisation.closeOfBusinessTime,
      interestAccrualFrom: organisation.interestAccrualFrom,
    },
    mode: 'onTouched',
  });
  const { errors, isDirty } = form.formState;
  const timeZones = useMemo(() => timeZoneOptions(organisation.timeZone), [organisation.timeZone]);
  const currencies = useMemo(() => currencyOptions(organisation.currency), [organisation.currency]);
  const countries = useMemo(() => countryOptions(organisation.country), [organisation.country]);

  const save = useMutation({
    mutationFn: (body: OrganisationOutput) => api(settingsEndpoints.saveOrganisation, { body }),
    onSuccess: (saved) => {
      queryClient.setQueryData(queryKeys.settings.organisation(), saved);
      void invalidate(queryClient, 'organisationSaved');
      toast({
        title: 'Organisation settings saved',
        description: 'They apply to everyone from now on.',
      });
    },
    onError: (error) => setAlert(applyServerError(form, error, FIELDS)),
  });

  const onSubmit = form.handleSubmit((values) => {
    setAlert(null);
    save.mutate(values);
  });

  const bucketsError = errors.delinquencyBuckets as (FieldError & { root?: FieldError }) | undefined;
  const bucketsMessage = bucketsError?.message ?? bucketsError?.root?.message;

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="grid grid-cols-1 gap-6"
      aria-label="Organisation settings"
    >
      <FormAlert message={alert} />
      <FormInput
        form={form}
        name="name"
        id="org-name"
        label="Name"
        autoComplete="organization"
        data-testid="input-org-name"
      />
      <div className="grid grid-cols-1 items-start gap-4 sm:grid-cols-2">
        <SearchedField form={form} name="currency" options={currencies} />
        <SearchedField form={form} name="country" options={countries} />
      </div>
      <SearchedField form={form} name="timeZone" options={timeZones} />

      <FormInput
        form={form}
        name="aprCap"
        id="org-apr-cap"
        label="APR cap (% a year)"
        hint="The highest APR a service plan may charge, where a regulator sets one. Leave empty for no cap."
        type="number"
        inputMode="decimal"
        min={0}
        max={1000}
        step="0.01"
        controlClassName="max-w-40"
        data-testid="input-org-apr-cap"
        registerOptions={{
          setValueAs: (value: unknown) =>
            value === '' || value === null || value === undefined ? null : Number(value),
        }}
      />

      <fieldset
        className="grid grid-cols-1 gap-2"
        data-testid="group-org-buckets"
        aria-describedby="org-buckets-hint"
      >
        <legend className="mb-1 font-medium text-sm">Arrears buckets</legend>
        <p id="org-buckets-hint" className="text-muted-foreground text-xs">
          The first day past due of each bucket, in increasing order. Contracts with fewer days past due than
          the first bound are current.
        </p>
        <Controller
          control={form.control}
          name="delinquencyBuckets"
          render={({ field }) => (
            <BucketsEditor
              key={resets}
              value={field.value}
              onChange={(next) => {
                field.onChange(next);
                void form.trigger('delinquencyBuckets');
              }}
              onBlur={field.onBlur}
              itemError={(index) => (errors.delinquencyBuckets?.[index] as FieldError | undefined)?.message}
            />
          )}
        />
        {bucketsMessage && (
          <p className="font-medium text-destructive text-xs" role="alert" data-testid="error-org-buckets">
            {bucketsMessage}
          </p>
        )}
        <p
          className="flex flex-wrap items-center gap-1.5 text-muted-foreground text-xs"
          data-testid="text-bucket-preview"
        >
          <span>Buckets (days past due):</span>
          {bucketLabels(form.watch('delinquencyBuckets') ?? []).map((label) => (
            <Badge key={label} variant="secondary">
              {label}
            </Badge>
          ))}
        </p>
      </fieldset>

      <Controller
        control={form.control}
        name="incomeBands"
        render={({ field, fieldState }) => (
          <IncomeBandsField
            key={resets}
            value={field.value}
            currency={form.watch('currency')}
            onChange={(next) => {
              field.onChange(next);
              void form.trigger('incomeBands');
            }}
            onBlur={field.onBlur}
            error={firstMessage(fieldState.error)}
          />
        )}
      />

      <fieldset className="grid grid-cols-1 gap-2">
        <legend className="mb-1 font-medium text-sm">Quiet hours</legend>
        <p className="text-muted-foreground text-xs">
          No reminders or messages are sent to customers between these times (organisation time zone).
        </p>
        <div className="grid grid-cols-1 gap-4 sm:max-w-md sm:grid-cols-2">
          {QUIET_HOURS.map(({ name, key, label }) => (
            <FormInput
              key={name}
              form={form}
              name={name}
              id={`org-quiet-${key}`}
              label={label}
              type="time"
              controlClassName="dark:[color-scheme:dark]"
              data-testid={`input-org-quiet-${key}`}
            />
          ))}
        </div>
      </fieldset>

      <fieldset className="grid grid-cols-1 gap-2" data-testid="group-org-close-of-business">
        <legend className="mb-1 font-medium text-sm">Close of business</legend>
        <p className="text-muted-foreground text-xs">
          Each night the business day is closed: arrears, late fees, locks, defaults and the portfolio
          figures.
        </p>
        <div className="grid grid-cols-1 items-start gap-4 sm:grid-cols-2">
          <FormInput
            form={form}
            name="closeOfBusinessTime"
            id="org-close-time"
            label="Closes at"
            hint="Local time (organisation time zone) at which the day is closed."
            type="time"
            controlClassName="max-w-40 dark:[color-scheme:dark]"
            data-testid="input-org-close-time"
          />
          <FormInput
            form={form}
            name="interestAccrualFrom"
            id="org-accrual-from"
            label="Accrue interest from"
            hint="Contracts started on or after this date earn interest daily (accrual accounting). Empty: interest is income when paid. It can be set to the business date or later, and not changed once reached."
            type="date"
            controlClassName="max-w-48 dark:[color-scheme:dark]"
            data-testid="input-org-accrual-from"
            registerOptions={{
              setValueAs: (value: unknown) =>
                value === '' || value === null || value === undefined ? null : value,
            }}
          />
        </div>
      </fieldset>

      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={save.isPending || !isDirty} data-testid="button-save-organisation">
          {save.isPending ? <Spinner className="size-4" /> : <Save aria-hidden="true" />}
          {save.isPending ? 'Saving…' : 'Save organisation settings'}
        </Button>
        {isDirty && (
          <Button
            type="button"
            variant="ghost"
            onClick={() => {
              form.reset();
              setResets((count) => count + 1);
            }}
            data-testid="button-reset-organisation"
          >
            Discard changes
          </Button>
        )}
      </div>
    </form>
  );
}

/** One of the long-list settings (SEARCHED), searched as typed. */
function SearchedField({
  form,
  name,
  options,
}: {
  form: UseFormReturn<OrganisationInput, unknown, OrganisationOutput>;
  name: keyof typeof SEARCHED;
  options: readonly SelectOption[];
}) {
  const { key, ...texts } = SEARCHED[name];
  return (
    <FormSearchableSelect
      form={form}
      name={name}
      id={`org-${key}`}
      {...texts}
      options={options}
      data-testid={`select-org-${key}`}
    />
  );
}

/** The message of a field or of the first of its items (tuple and array fields). */
function firstMessage(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const node = error as { message?: string; root?: { message?: string } } & Record<string, unknown>;
  if (node.message) return node.message;
  if (node.root?.message) return node.root.message;
  for (const item of Object.values(node)) {
    const message = (item as { message?: string } | undefined)?.message;
    if (message) return message;
  }
  return undefined;
}

interface BucketsEditorProps {
  value: number[];
  onChange: (value: number[]) => void;
  onBlur: () => void;
  itemError: (index: number) => string | undefined;
}

/** The bucket bounds as a list of day numbers: edit, add (up to 10) and remove (down to 1). */
function BucketsEditor({ value, onChange, onBlur, itemError }: BucketsEditorProps) {
  // What is typed, kept as text so a field can be emptied while typing; the form gets numbers.
  const [drafts, setDrafts] = useState(() => value.map(String));
  const update = (next: string[]) => {
    setDrafts(next);
    onChange(next.map((draft) => (/^\d+$/.test(draft.trim()) ? Number(draft) : 0)));
  };
  return (
    <div className="grid grid-cols-1 gap-2">
      <ol className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        {drafts.map((draft, index) => {
          const id = `org-bucket-${index}`;
          const error = itemError(index);
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: a bound is identified by its position
            <li key={index} className="grid grid-cols-1 content-start gap-1">
              <label htmlFor={id} className="text-muted-foreground text-xs">
                Bucket {index + 1} from day
              </label>
              <div className="flex items-center gap-1">
                <Input
                  id={id}
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={3650}
                  step={1}
                  className="w-24"
                  value={draft}
                  aria-invalid={!!error}
                  aria-describedby={error ? `${id}-error` : undefined}
                  onChange={(event) => update(drafts.map((d, i) => (i === index ? event.target.value : d)))}
                  onBlur={onBlur}
                  data-testid={`input-org-bucket-${index}`}
                />
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  className="size-8 text-muted-foreground"
                  disabled={drafts.length <= 1}
                  aria-label={`Remove bucket ${index + 1}`}
                  onClick={() => update(drafts.filter((_, i) => i !== index))}
                  data-testid={`button-remove-bucket-${index}`}
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </div>
              {error && (
                <p id={`${id}-error`} className="font-medium text-destructive text-xs">
                  {error}
                </p>
              )}
            </li>
          );
        })}
      </ol>
      <div>
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={drafts.length >= MAX_BUCKETS}
          onClick={() => {
            const last = Number(drafts.at(-1)) || 0;
            update([...drafts, String(last + 30)]);
          }}
          data-testid="button-add-bucket"
        >
          <Plus aria-hidden="true" />
          Add bucket
        </Button>
      </div>
    </div>
  );
}
