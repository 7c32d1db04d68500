import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Info } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { type Path, type UseFormRegisterReturn, useForm } from 'react-hook-form';
import { Link } from 'wouter';
import type { DeviceModel } from '@/contracts/devices';
import { ERROR_CODES } from '@/contracts/errors';
import {
  DEVICE_CATEGORIES,
  type Plan,
  type PlanCreateBody,
  type PlanUpdateBody,
  planEndpoints,
} from '@/contracts/plans';
import { toMinorUnits } from '@/domain/money';
import { FormActions } from '@/web/components/form-actions';
import { FormAlert } from '@/web/components/form-alert';
import { FormInput, FormSelect, FormTextarea } from '@/web/components/form-controls';
import { FormSection } from '@/web/components/form-section';
import { CATEGORY_LABELS } from '@/web/features/devices/format';
import { api } from '@/web/lib/api';
import { invalidate } from '@/web/lib/mutation-effects';
import { apiError, errorMessage, fieldErrors } from '@/web/lib/queryClient';
import { ALLOCATION_LABELS, FREQUENCY_LABELS, LATE_FEE_LABELS, METHOD_LABELS, PERIOD_NAMES } from './format';
import {
  changedTerms,
  EMPTY_PLAN,
  PLAN_FIELDS,
  type PlanField,
  type PlanFormValues,
  planBody,
  planValues,
} from './plan-rules';
import { SchedulePreview } from './schedule-preview';

interface PlanFormProps {
  /** The version being edited; undefined creates a plan. */
  plan?: Plan & { versions: Plan[] };
  currency: string;
  aprCap: number | null;
  models: readonly DeviceModel[];
  onSaved(plan: Plan): void;
  onCancel(): void;
}

/**
 * Creates a plan, or edits a version: a draft changes in place; an active or retired version is
 * never changed (contracts hold its terms), so saving makes the family's next version, a draft.
 */
export function PlanForm({ plan, currency, aprCap, models, onSaved, onCancel }: PlanFormProps) {
  const queryClient = useQueryClient();
  const [alert, setAlert] = useState<ReactNode>(null);
  const form = useForm<PlanFormValues>({ defaultValues: plan ? planValues(plan) : EMPTY_PLAN });
  const { errors } = form.formState;
  const values = form.watch();
  const nextVersion = plan
    ? Math.max(...plan.versions.map((version) => version.version), plan.version) + 1
    : 1;
  const newVersion = !!plan && plan.status !== 'draft';
  const money = plan?.currency ?? currency;

  // watch() hands back the same object as values change: compute afresh on every render (cheap).
  const previewTerms = planBody(values, money).body ?? null;
  const eligible = models.filter(
    (model) =>
      model.active &&
      (!values.eligibleModelIds.length || values.eligibleModelIds.includes(model.id)) &&
      (!values.eligibleCategories.length || values.eligibleCategories.includes(model.category)),
  );
  const examplePrice = eligible[0]?.retailPrice ?? toMinorUnits(500, money);

  const save = useMutation({
    mutationFn: (body: PlanUpdateBody) =>
      plan
        ? api(planEndpoints.update, { params: { id: plan.id }, body })
        : api(planEndpoints.create, { body: body as PlanCreateBody }),
    onSuccess: (saved) => {
      void invalidate(queryClient, 'planSaved');
      onSaved(saved);
    },
    onError: (error) => setAlert(applyPlanErrors(error)),
  });

  function applyPlanErrors(error: unknown): ReactNode {
    const code = apiError(error)?.code;
    if (code === ERROR_CODES.APR_CAP) {
      form.setError('apr', { type: 'server', message: errorMessage(error) }, { shouldFocus: true });
      return null;
    }
    if (code === ERROR_CODES.CODE_TAKEN) {
      form.setError('code', { type: 'server', message: errorMessage(error) }, { shouldFocus: true });
      return null;
    }
    if (code === ERROR_CODES.DRAFT_EXISTS) {
      const draft = plan?.versions.find((version) => version.status === 'draft');
      return (
        <>
          {errorMessage(error)}.{' '}
          {draft && (
            <Link href={`/service-plans/${draft.id}`} className="font-medium text-primary underline">
              Open version {draft.version}
            </Link>
          )}
        </>
      );
    }
    const others: string[] = [];
    let mapped = 0;
    for (const [field, message] of Object.entries(fieldErrors(error))) {
      const base = field.split('.')[0] as PlanField;
      if (PLAN_FIELDS.includes(base)) {
        form.setError(
          base as Path<PlanFormValues>,
          { type: 'server', message },
          { shouldFocus: mapped === 0 },
        );
        mapped += 1;
      } else others.push(message);
    }
    if (others.length) return others.join(' ');
    return mapped ? 'Some fields need correcting.' : errorMessage(error);
  }

  const onSubmit = form.handleSubmit((current) => {
    setAlert(null);
    form.clearErrors();
    const result = planBody(current, money, aprCap);
    if (result.errors) {
      let first = true;
      for (const field of PLAN_FIELDS) {
        const message = result.errors[field];
        if (!message) continue;
        form.setError(field as Path<PlanFormValues>, { type: 'validate', message }, { shouldFocus: first });
        first = false;
      }
      return;
    }
    if (plan) {
      const change = changedTerms(plan, result.body);
      if (!Object.keys(change).length) {
        setAlert('Nothing changed.');
        return;
      }
      save.mutate(change);
    } else {
      save.mutate(result.body);
    }
  });

  const field = (name: PlanField) =>
    form.register(name as Path<PlanFormValues>, { onChange: () => form.clearErrors(name) });
  const err = (name: PlanField) => errors[name]?.message as string | undefined;
  const [one, many] = PERIOD_NAMES[values.frequency];
  const lateFeeKind = values.lateFeeKind;
  const submitLabel = !plan
    ? 'Create draft plan'
    : newVersion
      ? `Save as version ${nextVersion} (draft)`
      : 'Save draft';

  return (
    <div className="grid grid-cols-1 items-start gap-4 xl:grid-cols-[minmax(0,1fr)_24rem]">
      <form
        onSubmit={onSubmit}
        noValidate
        className="grid grid-cols-1 min-w-0 gap-4"
        aria-label={plan ? `Edit ${plan.code}` : 'New service plan'}
        data-testid="form-plan"
      >
        {newVersion && plan && (
          <div
            className="flex items-start gap-2 rounded-lg border border-primary/40 bg-primary/5 px-3 py-2.5 text-sm"
            data-testid="text-new-version-note"
          >
            <Info className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
            <p>
              Version {plan.version} is {plan.status}: its terms never change, because contracts hold them.
              Saving creates <strong>version {nextVersion} as a draft</strong>; activate it to offer the new
              terms.
            </p>
          </div>
        )}
        <FormAlert message={alert} />

        <FormSection headerClassName="pb-4" title="Plan" description="How staff and customers know the plan.">
          <div className="grid grid-cols-1 items-start gap-4 sm:grid-cols-[12rem_1fr]">
            <FormInput
              form={form}
              name="code"
              clearErrorOnChange
              id="plan-code"
              label="Code"
              hint={plan ? 'Names the plan family; it cannot change.' : 'e.g. PHONE-12M'}
              autoComplete="off"
              spellCheck={false}
              readOnly={!!plan}
              controlClassName="font-mono uppercase"
              data-testid="input-plan-code"
            />
            <FormInput
              form={form}
              name="name"
              clearErrorOnChange
              id="plan-name"
              label="Name"
              autoComplete="off"
              data-testid="input-plan-name"
            />
            <FormTextarea
              form={form}
              name="description"
              clearErrorOnChange
              id="plan-description"
              label="Description (optional)"
              className="sm:col-span-2"
              rows={2}
              data-testid="input-plan-description"
            />
          </div>
        </FormSection>

        <FormSection
          headerClassName="pb-4"
          title="Repayment"
          description="How often the customer pays, for how long, and the interest."
        >
          <div className="grid grid-cols-1 items-start gap-4 sm:grid-cols-2">
            <FormSelect
              form={form}
              name="frequency"
              clearErrorOnChange
              id="plan-frequency"
              label="Frequency"
              options={FREQUENCY_LABELS}
              data-testid="select-plan-frequency"
            />
            <FormInput
              form={form}
              name="allowedTerms"
              clearErrorOnChange
              id="plan-terms"
              label={`Allowed terms (${many})`}
              hint={`Numbers of instalments, separated by commas: e.g. 6, 12, 18 ${many}.`}
              inputMode="numeric"
              autoComplete="off"
              placeholder="6, 12, 18"
              data-testid="input-plan-terms"
            />
            <FormInput
              form={form}
              name="apr"
              clearErrorOnChange
              id="plan-apr"
              label="APR (% a year, nominal)"
              hint={aprCap === null ? 'No regulatory cap is set.' : `The organisation’s cap is ${aprCap}%.`}
              inputMode="decimal"
              autoComplete="off"
              data-testid="input-plan-apr"
            />
            <FormSelect
              form={form}
              name="interestMethod"
              clearErrorOnChange
              id="plan-method"
              label="Interest method"
              options={METHOD_LABELS}
              data-testid="select-plan-method"
            />
            <FormInput
              form={form}
              name="installmentMultiple"
              clearErrorOnChange
              id="plan-multiple"
              label={`Instalment multiple (${money}, optional)`}
              hint="Rounds each instalment down to a multiple; the last one takes the rest."
              inputMode="decimal"
              autoComplete="off"
              placeholder="0.00"
              data-testid="input-plan-multiple"
            />
          </div>
        </FormSection>

        <FormSection
          headerClassName="pb-4"
          title="Deposit and fees"
          description="Paid up front, and added to every instalment."
        >
          <div className="grid grid-cols-1 items-start gap-4 sm:grid-cols-2">
            <FormInput
              form={form}
              name="minDepositPercent"
              clearErrorOnChange
              id="plan-deposit-percent"
              label="Minimum deposit (% of price)"
              inputMode="decimal"
              autoComplete="off"
              data-testid="input-plan-deposit-percent"
            />
            <FormInput
              form={form}
              name="minDepositAmount"
              clearErrorOnChange
              id="plan-deposit-amount"
              label={`Minimum deposit amount (${money})`}
              hint="The deposit is at least the larger of the two."
              inputMode="decimal"
              autoComplete="off"
              placeholder="0.00"
              data-testid="input-plan-deposit-amount"
            />
            <FormInput
              form={form}
              name="serviceFee"
              clearErrorOnChange
              id="plan-service-fee"
              label={`Service fee per ${one} (${money})`}
              hint="Insurance or connectivity: its own component, never interest."
              inputMode="decimal"
              autoComplete="off"
              placeholder="0.00"
              data-testid="input-plan-service-fee"
            />
            <FormInput
              form={form}
              name="earlySettlementDiscountPercent"
              clearErrorOnChange
              id="plan-early-discount"
              label="Early-settlement discount (%)"
              hint="Off the interest still to come when the customer pays off early."
              inputMode="decimal"
              autoComplete="off"
              data-testid="input-plan-early-discount"
            />
          </div>
        </FormSection>

        <FormSection
          headerClassName="pb-4"
          title="Arrears"
          description="What happens when an instalment is late."
        >
          <div className="grid grid-cols-1 items-start gap-4 sm:grid-cols-2">
            <FormSelect
              form={form}
              name="lateFeeKind"
              clearErrorOnChange
              id="plan-late-fee-kind"
              label="Late fee"
              options={LATE_FEE_LABELS}
              data-testid="select-plan-late-fee-kind"
            />
            <FormInput
              form={form}
              name="lateFeeValue"
              clearErrorOnChange
              id="plan-late-fee-value"
              label={lateFeeKind === 'percent' ? 'Late fee (%)' : `Late fee (${money})`}
              hint={
                lateFeeKind === 'none'
                  ? 'Choose a kind of late fee first.'
                  : 'Charged once per overdue instalment.'
              }
              inputMode="decimal"
              autoComplete="off"
              disabled={lateFeeKind === 'none'}
              data-testid="input-plan-late-fee-value"
            />
            <FormInput
              form={form}
              name="graceDays"
              clearErrorOnChange
              id="plan-grace"
              label="Grace days"
              hint="Days after the due date before the late fee."
              inputMode="numeric"
              autoComplete="off"
              data-testid="input-plan-grace"
            />
            <FormInput
              form={form}
              name="lockAfterDays"
              clearErrorOnChange
              id="plan-lock-after"
              label="Lock after (days overdue)"
              hint="Empty: never lock automatically."
              inputMode="numeric"
              autoComplete="off"
              data-testid="input-plan-lock-after"
            />
            <FormInput
              form={form}
              name="defaultAfterDays"
              clearErrorOnChange
              id="plan-default-after"
              label="Default after (days overdue)"
              hint="Empty: never default automatically."
              inputMode="numeric"
              autoComplete="off"
              data-testid="input-plan-default-after"
            />
            <FormSelect
              form={form}
              name="allocationStrategy"
              clearErrorOnChange
              id="plan-allocation"
              label="Payments beyond what is due"
              options={ALLOCATION_LABELS}
              data-testid="select-plan-allocation"
            />
          </div>
        </FormSection>

        <FormSection
          headerClassName="pb-4"
          title="Eligibility"
          description="Leave both empty to finance any device."
        >
          <div className="grid grid-cols-1 gap-5">
            <CheckboxGroup
              legend="Device categories"
              error={err('eligibleCategories')}
              testId="group-plan-categories"
              options={DEVICE_CATEGORIES.map((category) => ({
                value: category,
                label: CATEGORY_LABELS[category] ?? category,
              }))}
              register={field('eligibleCategories')}
            />
            {models.length > 0 && (
              <CheckboxGroup
                legend="Device models"
                error={err('eligibleModelIds')}
                testId="group-plan-models"
                scroll
                options={models.map((model) => ({
                  value: model.id,
                  label: `${model.name}${model.active ? '' : ' (inactive)'}`,
                }))}
                register={field('eligibleModelIds')}
              />
            )}
          </div>
        </FormSection>

        <FormActions testName="plan" onCancel={onCancel} pending={save.isPending} submitLabel={submitLabel} />
      </form>
      <div className="xl:sticky xl:top-4">
        <SchedulePreview
          key={examplePrice}
          terms={previewTerms}
          currency={money}
          examplePrice={examplePrice}
        />
      </div>
    </div>
  );
}

function CheckboxGroup({
  legend,
  options,
  register,
  error,
  scroll,
  testId,
}: {
  legend: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  register: UseFormRegisterReturn;
  error?: string | undefined;
  scroll?: boolean;
  testId: string;
}) {
  const errorId = `${testId}-error`;
  return (
    <fieldset aria-describedby={error ? errorId : undefined} data-testid={testId}>
      <legend className="mb-2 font-medium text-sm">{legend}</legend>
      <div
        className={
          scroll
            ? 'grid max-h-56 gap-2 overflow-y-auto rounded-md border p-3 sm:grid-cols-2'
            : 'grid gap-2 sm:grid-cols-3'
        }
      >
        {options.map((option) => (
          <label key={option.value} className="flex min-w-0 items-center gap-2 text-sm">
            <input
              type="checkbox"
              value={option.value}
              className="size-4 shrink-0 accent-primary"
              {...register}
            />
            <span className="truncate">{option.label}</span>
          </label>
        ))}
      </div>
      {error && (
        <p id={errorId} className="mt-1.5 font-medium text-destructive text-xs">
          {error}
        </p>
      )}
    </fieldset>
  );
}
