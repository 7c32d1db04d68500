import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { communicationEndpoints, type Segment, type SegmentFilter } from '@/contracts/communications';
import { DEVICE_CATEGORIES, deviceModelEndpoints } from '@/contracts/devices';
import { planEndpoints } from '@/contracts/plans';
import { settingsEndpoints } from '@/contracts/settings';
import { FormAlert } from '@/web/components/form-alert';
import { FormField } from '@/web/components/form-field';
import { Spinner } from '@/web/components/loaders';
import { Button } from '@/web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/web/components/ui/dialog';
import { Input } from '@/web/components/ui/input';
import { useCustomerTags, useRegions, useStaff } from '@/web/features/customers/queries';
import { CATEGORY_LABELS } from '@/web/features/devices/format';
import { useDebounced } from '@/web/features/payments/contract-picker';
import { useAuth } from '@/web/hooks/use-auth';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { invalidate } from '@/web/lib/mutation-effects';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage, fieldErrors } from '@/web/lib/queryClient';

/** Choices as checkboxes: a segment part is any of the ones ticked, all of them when none is. */
function Choices({
  legend,
  options,
  value,
  onChange,
  testId,
}: {
  legend: string;
  options: ReadonlyArray<readonly [string, string]>;
  value: readonly string[];
  onChange: (next: string[]) => void;
  testId: string;
}) {
  return (
    <fieldset className="grid grid-cols-1 gap-1.5" data-testid={`choices-${testId}`}>
      <legend className="mb-1 font-medium text-sm">{legend}</legend>
      {options.length === 0 ? (
        <p className="text-muted-foreground text-xs">None to choose from yet.</p>
      ) : null}
      <div className="flex flex-wrap gap-x-4 gap-y-1.5">
        {options.map(([option, label]) => (
          <label key={option} className="flex items-center gap-1.5 text-sm">
            <input
              type="checkbox"
              checked={value.includes(option)}
              onChange={(event) =>
                onChange(event.target.checked ? [...value, option] : value.filter((v) => v !== option))
              }
              data-testid={`checkbox-${testId}-${option}`}
            />
            {label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

const toInt = (text: string) => (text.trim() === '' ? undefined : Number(text));

/** The filter as the API takes it: empty parts left out. */
export function cleanFilter(f: SegmentFilter): SegmentFilter {
  const out: SegmentFilter = {};
  for (const [key, value] of Object.entries(f) as [keyof SegmentFilter, unknown][]) {
    if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

/**
 * Creates or edits a segment: its name and its filter (bucket, DPD range, region, plan, product,
 * agent, tag), with the count of customers it holds as it is written.
 */
export function SegmentDialog({ segment, onClose }: { segment: Segment | null; onClose: () => void }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [name, setName] = useState(segment?.name ?? '');
  const [description, setDescription] = useState(segment?.description ?? '');
  const [filter, setFilter] = useState<SegmentFilter>(segment?.filter ?? {});
  const [dpdMin, setDpdMin] = useState(segment?.filter.dpdMin?.toString() ?? '');
  const [dpdMax, setDpdMax] = useState(segment?.filter.dpdMax?.toString() ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const options = useQuery({
    queryKey: queryKeys.settings.options(),
    queryFn: () => api(settingsEndpoints.options),
  });
  const regions = useRegions();
  const tags = useCustomerTags();
  const plans = useQuery({
    queryKey: queryKeys.plans.choices(),
    queryFn: () => api(planEndpoints.list, { query: { pageSize: 200 } }),
  });
  // The agents to choose from: everyone for administrators (who may list staff), oneself for others.
  const { user } = useAuth();
  const staff = useStaff(user);
  const agentOptions: (readonly [string, string])[] = user ? [[user.id, 'Mine (assigned to me)']] : [];
  for (const person of staff.data ?? [])
    if (person.id !== user?.id) agentOptions.push([person.id, `${person.firstName} ${person.lastName}`]);
  const models = useQuery({
    queryKey: queryKeys.deviceModels.choices(),
    queryFn: () => api(deviceModelEndpoints.list, { query: { pageSize: 200 } }),
  });
  const full = cleanFilter({ ...filter, dpdMin: toInt(dpdMin), dpdMax: toInt(dpdMax) });
  const settled = useDebounced(JSON.stringify(full), 300);
  const count = useQuery({
    queryKey: queryKeys.messages.segmentCount(settled),
    queryFn: () => api(communicationEndpoints.countSegment, { body: { filter: JSON.parse(settled) } }),
    retry: false,
  });
  const set = (key: keyof SegmentFilter) => (value: string[]) => setFilter((f) => ({ ...f, [key]: value }));

  const mutation = useMutation({
    mutationFn: () => {
      const body = {
        name: name.trim(),
        ...(description.trim() ? { description: description.trim() } : {}),
        filter: full,
      };
      return segment
        ? api(communicationEndpoints.updateSegment, { params: { id: segment.id }, body })
        : api(communicationEndpoints.createSegment, { body });
    },
    onSuccess: (saved) => {
      void invalidate(queryClient, 'segmentsChanged');
      toast({ title: `Segment "${saved.name}" saved: ${saved.customers.toLocaleString()} customers` });
      onClose();
    },
    onError: (failure) => {
      const fields = fieldErrors(failure);
      setErrors({
        ...fields,
        ...(fields['filter.dpdMax'] ? { dpd: fields['filter.dpdMax'] } : {}),
        ...(fields['filter.dpdMin'] ? { dpd: fields['filter.dpdMin'] } : {}),
      });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (name.trim().length < 2) found.name = 'Give the segment a name';
    const [min, max] = [toInt(dpdMin), toInt(dpdMax)];
    if ([min, max].some((n) => n !== undefined && (!Number.isInteger(n) || n < 0)))
      found.dpd = 'DPD is a whole number, 0 or more';
    else if (min !== undefined && max !== undefined && min > max)
      found.dpd = 'The lowest DPD is at most the highest';
    setErrors(found);
    if (Object.keys(found).length) return;
    mutation.mutate();
  };
  const general =
    mutation.error && !Object.keys(fieldErrors(mutation.error)).length ? errorMessage(mutation.error) : null;
  return (
    <Dialog open onOpenChange={(next) => !next && !mutation.isPending && onClose()}>
      <DialogContent className="max-h-[90vh] max-w-2xl overflow-y-auto" data-testid="dialog-segment">
        <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-4">
          <DialogHeader>
            <DialogTitle>{segment ? `Edit ${segment.name}` : 'New segment'}</DialogTitle>
            <DialogDescription>
              A customer is in it when one of their live contracts matches every part given (and their region,
              agent and tags do).
            </DialogDescription>
          </DialogHeader>
          <FormAlert message={general} />
          <FormField id={`${id}-name`} label="Name" error={errors.name}>
            {(control) => (
              <Input
                {...control}
                value={name}
                maxLength={80}
                onChange={(event) => setName(event.target.value)}
                data-testid="input-segment-name"
              />
            )}
          </FormField>
          <FormField id={`${id}-description`} label="Description (optional)">
            {(control) => (
              <Input
                {...control}
                value={description}
                maxLength={500}
                onChange={(event) => setDescription(event.target.value)}
              />
            )}
          </FormField>
          <Choices
            legend="Bucket"
            options={(options.data?.delinquencyBuckets ?? []).map((b) => [b.value, b.label] as const)}
            value={filter.buckets ?? []}
            onChange={set('buckets')}
            testId="bucket"
          />
          <FormField id={`${id}-dpd`} label="Days past due" error={errors.dpd}>
            {(control) => (
              <div className="flex items-center gap-2">
                <Input
                  {...control}
                  type="number"
                  min={0}
                  className="w-28"
                  placeholder="From"
                  value={dpdMin}
                  onChange={(event) => setDpdMin(event.target.value)}
                  data-testid="input-segment-dpd-min"
                />
                <span className="text-muted-foreground text-sm">to</span>
                <Input
                  type="number"
                  min={0}
                  className="w-28"
                  placeholder="To"
                  aria-label="Days past due, at most"
                  value={dpdMax}
                  onChange={(event) => setDpdMax(event.target.value)}
                  data-testid="input-segment-dpd-max"
                />
              </div>
            )}
          </FormField>
          <Choices
            legend="Region"
            options={(regions.data ?? []).map((r) => [r, r] as const)}
            value={filter.regions ?? []}
            onChange={set('regions')}
            testId="region"
          />
          <Choices
            legend="Plan"
            options={(plans.data?.items ?? []).map((p) => [p.id, `${p.name} (${p.code})`] as const)}
            value={filter.planIds ?? []}
            onChange={set('planIds')}
            testId="plan"
          />
          <Choices
            legend="Product category"
            options={DEVICE_CATEGORIES.map((c) => [c, CATEGORY_LABELS[c] ?? c] as const)}
            value={filter.categories ?? []}
            onChange={(next) => setFilter((f) => ({ ...f, categories: next as SegmentFilter['categories'] }))}
            testId="category"
          />
          <Choices
            legend="Device model"
            options={(models.data?.items ?? []).map((m) => [m.id, m.name] as const)}
            value={filter.deviceModelIds ?? []}
            onChange={set('deviceModelIds')}
            testId="model"
          />
          <Choices
            legend="Agent"
            options={agentOptions}
            value={filter.agentIds ?? []}
            onChange={set('agentIds')}
            testId="agent"
          />
          <Choices
            legend="Tag (any of)"
            options={(tags.data ?? []).map((t) => [t, t] as const)}
            value={filter.tags ?? []}
            onChange={set('tags')}
            testId="tag"
          />
          <p className="text-sm" aria-live="polite" data-testid="text-segment-count">
            {count.isPending
              ? 'Counting…'
              : count.isError
                ? errorMessage(count.error)
                : `${count.data.customers.toLocaleString()} customer${count.data.customers === 1 ? '' : 's'} in this segment`}
          </p>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose} disabled={mutation.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={mutation.isPending} data-testid="button-save-segment">
              {mutation.isPending && <Spinner className="size-4" />}
              Save segment
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
