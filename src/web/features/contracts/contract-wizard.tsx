import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, ArrowRight, CircleAlert, FilePlus2, TriangleAlert } from 'lucide-react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { type ContractPreview, contractEndpoints } from '@/contracts/contracts';
import { type CustomerListItem, customerEndpoints, type KycStatus } from '@/contracts/customers';
import { type Device, deviceEndpoints, deviceModelEndpoints } from '@/contracts/devices';
import { ERROR_CODES } from '@/contracts/errors';
import { type Plan, planEndpoints } from '@/contracts/plans';
import { minimumDeposit, planIneligibility } from '@/domain';
import { FormAlert } from '@/web/components/form-alert';
import { FormField } from '@/web/components/form-field';
import { Spinner } from '@/web/components/loaders';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent } from '@/web/components/ui/card';
import { Input } from '@/web/components/ui/input';
import { termDuration } from '@/web/features/calculator/inputs';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { amountPlaceholder, formatPercent } from '@/web/lib/format';
import { money } from '@/web/lib/money';
import { invalidate } from '@/web/lib/mutation-effects';
import { queryKeys } from '@/web/lib/query-keys';
import { apiError, errorMessage, fieldErrors } from '@/web/lib/queryClient';
import { SchedulePreview } from './schedule-preview';
import { ServerPicker } from './server-picker';
import {
  EMPTY_VALUES,
  firstIncompleteStep,
  firstStepWithError,
  knownFieldErrors,
  type PickedCustomer,
  type PickedDevice,
  requestBody,
  STEPS,
  type StepContext,
  type StepId,
  stepErrors,
  stepIndex,
  type WizardErrors,
  type WizardValues,
} from './wizard-model';
import { WizardStepper } from './wizard-stepper';

const KYC_LABELS: Readonly<Record<string, string>> = {
  not_started: 'KYC not started',
  pending: 'KYC pending',
  verified: 'KYC verified',
  rejected: 'KYC rejected',
} satisfies Record<KycStatus, string>;

const toCustomer = (c: Pick<CustomerListItem, 'id' | 'fullName' | 'accountNumber' | 'phone'>, kyc: string) =>
  ({
    id: c.id,
    name: c.fullName,
    accountNumber: c.accountNumber,
    phone: c.phone,
    kycStatus: kyc,
  }) satisfies PickedCustomer;

const toDevice = (d: Device): PickedDevice => ({
  id: d.id,
  serialNumber: d.serialNumber,
  modelId: d.model.id,
  modelName: d.model.name,
  category: d.model.category,
});

const customerLabel = (c: PickedCustomer) =>
  `${c.name} · ${c.accountNumber} · ${c.phone}${c.kycStatus === 'verified' ? '' : ` (${KYC_LABELS[c.kycStatus] ?? c.kycStatus})`}`;
const deviceLabel = (d: PickedDevice) => `${d.modelName} · ${d.serialNumber}`;
const planLabel = (p: Plan) => `${p.code} · ${p.name} (${p.frequency}, ${formatPercent(p.apr)} APR)`;

/**
 * /contracts/new: customer → device → plan → deposit and term → schedule (from the server's
 * engine) → submit. Values live here, so Back and the stepper never lose them; a field the server
 * refuses sends the wizard back to its step with the message under the field.
 */
export function ContractWizard() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const params = new URLSearchParams(useSearch());
  const [values, setValues] = useState<WizardValues>(EMPTY_VALUES);
  const [step, setStep] = useState<StepId>('customer');
  const [reached, setReached] = useState<StepId>('customer');
  const [errors, setErrors] = useState<WizardErrors>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [preview, setPreview] = useState<ContractPreview | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const firstRender = useRef(true);
  const ids = useId();

  // ?customerId= / ?deviceId= (from a customer's or a device's page) prefill the first steps.
  const prefillCustomer = params.get('customerId');
  const prefillDevice = params.get('deviceId');
  const customerQuery = useQuery({
    queryKey: queryKeys.customers.detail(prefillCustomer ?? ''),
    queryFn: () => api(customerEndpoints.get, { params: { id: prefillCustomer ?? '' } }),
    enabled: !!prefillCustomer,
  });
  const deviceQuery = useQuery({
    queryKey: queryKeys.devices.detail(prefillDevice ?? ''),
    queryFn: () => api(deviceEndpoints.get, { params: { id: prefillDevice ?? '' } }),
    enabled: !!prefillDevice,
  });
  useEffect(() => {
    const c = customerQuery.data;
    if (c) setValues((v) => (v.customer ? v : { ...v, customer: toCustomer(c, c.kyc.status) }));
  }, [customerQuery.data]);
  useEffect(() => {
    const d = deviceQuery.data;
    if (d?.status === 'in_stock') setValues((v) => (v.device ? v : { ...v, device: toDevice(d) }));
  }, [deviceQuery.data]);

  const modelQuery = useQuery({
    queryKey: queryKeys.deviceModels.detail(values.device?.modelId ?? ''),
    queryFn: () => api(deviceModelEndpoints.get, { params: { id: values.device?.modelId ?? '' } }),
    enabled: !!values.device,
    staleTime: 60_000,
  });
  const model = values.device ? modelQuery.data : undefined;
  const context: StepContext = {
    cashPrice: model?.retailPrice ?? null,
    currency: model?.currency ?? values.plan?.currency ?? 'USD',
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: focus moves to the heading when the step changes
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    headingRef.current?.focus();
  }, [step]);

  const go = (next: StepId) => {
    setAlert(null);
    setStep(next);
    if (stepIndex(next) > stepIndex(reached)) setReached(next);
  };

  const update = (change: Partial<WizardValues>, clear: Array<keyof WizardErrors>) => {
    setValues((v) => ({ ...v, ...change }));
    setErrors((e) => {
      const copy = { ...e };
      for (const field of clear) delete copy[field];
      return copy;
    });
    // A changed input makes the schedule stale: the wizard cannot be submitted past it.
    if (stepIndex(reached) > stepIndex('terms')) setReached('terms');
    setPreview(null);
  };

  /** Puts a refusal where it belongs: field messages at their step, the rest in the alert. */
  const showServerError = (error: unknown) => {
    const fields = knownFieldErrors(fieldErrors(error));
    const code = apiError(error)?.code;
    const target =
      firstStepWithError(fields) ??
      (code === ERROR_CODES.NOT_ELIGIBLE ? 'plan' : code === ERROR_CODES.DEVICE_TAKEN ? 'device' : null);
    if (code === ERROR_CODES.NOT_ELIGIBLE) fields.planId = errorMessage(error);
    if (code === ERROR_CODES.DEVICE_TAKEN) fields.deviceId = errorMessage(error);
    setErrors(fields);
    if (target) {
      setStep(target);
      setAlert(Object.keys(fields).length ? null : errorMessage(error));
    } else setAlert(errorMessage(error));
  };

  const previewMutation = useMutation({
    mutationFn: () => api(contractEndpoints.preview, { body: requestBody(values, context) }),
    onSuccess: (result) => {
      setPreview(result);
      go('preview');
    },
    onError: showServerError,
  });

  const createMutation = useMutation({
    mutationFn: async () => {
      const created = await api(contractEndpoints.create, { body: requestBody(values, context) });
      if (!values.submitForApproval) return { contract: created, submitError: null };
      try {
        const submitted = await api(contractEndpoints.submit, { params: { id: created.id } });
        return { contract: submitted, submitError: null };
      } catch (error) {
        return { contract: created, submitError: errorMessage(error) };
      }
    },
    onSuccess: ({ contract, submitError }) => {
      void invalidate(queryClient, 'contractCreated');
      toast({
        title: `Contract ${contract.number} created`,
        description: submitError
          ? `Saved as a draft; it could not be submitted: ${submitError}`
          : contract.status === 'pending_approval'
            ? 'Submitted for approval: a second person must approve it.'
            : 'Saved as a draft. Submit it for approval when it is ready.',
        variant: submitError ? 'destructive' : 'default',
      });
      navigate(`/contracts/${contract.id}`);
    },
    onError: showServerError,
  });

  const next = (event: FormEvent) => {
    event.preventDefault();
    const missing = firstIncompleteStep(step, values, context);
    if (missing) {
      setErrors(stepErrors(missing, values, context));
      setStep(missing);
      return;
    }
    const found = stepErrors(step, values, context);
    setErrors(found);
    if (Object.keys(found).length) {
      const first = Object.keys(found)[0];
      document.getElementById(`${ids}-${first}`)?.focus();
      return;
    }
    if (step === 'terms') previewMutation.mutate();
    else if (step === 'submit') createMutation.mutate();
    else {
      const following = STEPS[stepIndex(step) + 1];
      if (following) go(following.id);
    }
  };

  const back = () => {
    const previous = STEPS[stepIndex(step) - 1];
    if (previous) go(previous.id);
  };

  const pending = previewMutation.isPending || createMutation.isPending;
  const current = STEPS[stepIndex(step)] ?? STEPS[0];
  const fieldId = (field: keyof WizardErrors) => `${ids}-${field}`;

  return (
    <div className="grid grid-cols-1 min-w-0 gap-0">
      <WizardStepper current={step} reached={reached} onGo={(target) => go(target)} />
      <Card>
        <form onSubmit={next} noValidate aria-labelledby={`${ids}-heading`} data-testid={`form-step-${step}`}>
          <CardContent className="grid grid-cols-1 gap-5 p-4 sm:p-6">
            <div>
              <h2
                id={`${ids}-heading`}
                ref={headingRef}
                tabIndex={-1}
                className="font-semibold text-lg outline-none"
                data-testid="text-step-title"
              >
                {stepIndex(step) + 1}. {current.title}
              </h2>
              <p className="mt-1 text-muted-foreground text-sm">{STEP_HINTS[step]}</p>
            </div>
            <FormAlert message={alert} />

            {step === 'customer' && (
              <>
                <FormField id={fieldId('customerId')} label="Customer" error={errors.customerId}>
                  {(control) => (
                    <ServerPicker<CustomerListItem>
                      {...control}
                      endpoint={customerEndpoints.list}
                      selected={
                        values.customer
                          ? { value: values.customer.id, label: customerLabel(values.customer) }
                          : null
                      }
                      onSelect={(item) =>
                        update({ customer: toCustomer(item, item.kycStatus) }, ['customerId'])
                      }
                      itemId={(item) => item.id}
                      itemLabel={(item) => customerLabel(toCustomer(item, item.kycStatus))}
                      searchLabel="Search customers by name, phone or account number"
                      placeholder="Choose a customer…"
                      data-testid="select-customer"
                    />
                  )}
                </FormField>
                {values.customer && <CustomerSummary customer={values.customer} />}
              </>
            )}

            {step === 'device' && (
              <>
                <FormField
                  id={fieldId('deviceId')}
                  label="Device"
                  error={errors.deviceId}
                  hint="Units in stock. The device is reserved for this contract when the draft is saved."
                >
                  {(control) => (
                    <ServerPicker<Device>
                      {...control}
                      endpoint={deviceEndpoints.list}
                      filters={{ status: 'in_stock' }}
                      selected={
                        values.device ? { value: values.device.id, label: deviceLabel(values.device) } : null
                      }
                      onSelect={(item) => update({ device: toDevice(item) }, ['deviceId', 'planId'])}
                      itemId={(item) => item.id}
                      itemLabel={(item) => deviceLabel(toDevice(item))}
                      searchLabel="Search devices in stock by serial number or IMEI"
                      placeholder="Choose a device…"
                      data-testid="select-device"
                    />
                  )}
                </FormField>
                {values.device && (
                  <dl className="grid grid-cols-1 gap-x-6 gap-y-2 rounded-lg border bg-muted/30 p-4 text-sm sm:grid-cols-3">
                    <Fact label="Model" value={values.device.modelName} />
                    <Fact label="Category" value={values.device.category.replaceAll('_', ' ')} />
                    <Fact
                      label="Cash price"
                      value={
                        model ? money(model.retailPrice, model.currency) : modelQuery.error ? 'Unknown' : '…'
                      }
                      testId="text-cash-price"
                    />
                  </dl>
                )}
              </>
            )}

            {step === 'plan' && (
              <>
                <FormField id={fieldId('planId')} label="Service plan" error={errors.planId}>
                  {(control) => (
                    <ServerPicker<Plan>
                      {...control}
                      endpoint={planEndpoints.list}
                      filters={{ status: 'active' }}
                      selected={values.plan ? { value: values.plan.id, label: planLabel(values.plan) } : null}
                      onSelect={(plan) =>
                        update(
                          {
                            plan,
                            term:
                              values.term && plan.allowedTerms.includes(Number(values.term))
                                ? values.term
                                : '',
                          },
                          ['planId', 'term', 'deposit'],
                        )
                      }
                      itemId={(plan) => plan.id}
                      itemLabel={(plan) =>
                        `${planLabel(plan)}${planIneligibility(plan, values.device) ? ' — not for this device' : ''}`
                      }
                      searchLabel="Search active plans by code or name"
                      placeholder="Choose a plan…"
                      data-testid="select-plan"
                    />
                  )}
                </FormField>
                {values.plan && <PlanSummary plan={values.plan} />}
              </>
            )}

            {step === 'terms' && values.plan && (
              <TermsStep
                values={values}
                context={context}
                errors={errors}
                fieldId={fieldId}
                onChange={(change, field) => update(change, [field])}
              />
            )}

            {step === 'preview' && preview && <SchedulePreview preview={preview} />}

            {step === 'submit' && preview && (
              <SubmitStep
                values={values}
                preview={preview}
                onEdit={(target) => go(target)}
                onToggle={(submitForApproval) => setValues((v) => ({ ...v, submitForApproval }))}
              />
            )}
          </CardContent>
          <div className="flex flex-col-reverse gap-2 border-t p-4 sm:flex-row sm:justify-between sm:px-6">
            <Button
              type="button"
              variant="outline"
              onClick={back}
              disabled={step === 'customer' || pending}
              data-testid="button-wizard-back"
            >
              <ArrowLeft aria-hidden="true" />
              Back
            </Button>
            <Button type="submit" disabled={pending} data-testid="button-wizard-next">
              {pending && <Spinner className="size-4" />}
              {step === 'terms' ? (
                <>
                  Preview schedule <ArrowRight aria-hidden="true" />
                </>
              ) : step === 'submit' ? (
                <>
                  <FilePlus2 aria-hidden="true" />
                  {values.submitForApproval ? 'Create and submit for approval' : 'Create draft'}
                </>
              ) : (
                <>
                  Next <ArrowRight aria-hidden="true" />
                </>
              )}
            </Button>
          </div>
        </form>
      </Card>
    </div>
  );
}

const STEP_HINTS: Record<StepId, string> = {
  customer: 'Who is buying the device. Search by name, phone or account number.',
  device: 'Which unit from stock the customer takes home.',
  plan: 'The financing product: its terms are copied into the contract.',
  terms: 'How much the customer pays now, and over how many instalments.',
  preview: 'The schedule the finance engine computes for these terms. Nothing is saved yet.',
  submit: 'Check the contract, then create it.',
};

function Fact({ label, value, testId }: { label: string; value: React.ReactNode; testId?: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-muted-foreground text-xs">{label}</dt>
      <dd className="truncate font-medium" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function CustomerSummary({ customer }: { customer: PickedCustomer }) {
  const verified = customer.kycStatus === 'verified';
  return (
    <div className="grid grid-cols-1 gap-3">
      <dl className="grid grid-cols-1 gap-x-6 gap-y-2 rounded-lg border bg-muted/30 p-4 text-sm sm:grid-cols-3">
        <Fact label="Name" value={customer.name} testId="text-customer-name" />
        <Fact label="Account" value={customer.accountNumber} />
        <Fact label="Phone" value={customer.phone} />
        <div>
          <dt className="text-muted-foreground text-xs">KYC</dt>
          <dd>
            <Badge variant={verified ? 'success' : 'warning'} data-testid="badge-customer-kyc">
              {KYC_LABELS[customer.kycStatus] ?? customer.kycStatus}
            </Badge>
          </dd>
        </div>
      </dl>
      {!verified && (
        <p className="flex items-start gap-2 text-sm" data-testid="text-kyc-warning">
          <TriangleAlert className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden="true" />
          The draft can be saved, but the contract cannot be activated until the customer’s KYC is verified.
        </p>
      )}
    </div>
  );
}

function PlanSummary({ plan }: { plan: Plan }) {
  const fees = plan.serviceFee ? money(plan.serviceFee, plan.currency) : 'None';
  const minimum = [
    plan.minDepositPercent ? formatPercent(plan.minDepositPercent) : null,
    plan.minDepositAmount ? money(plan.minDepositAmount, plan.currency) : null,
  ]
    .filter(Boolean)
    .join(' or ');
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-2 rounded-lg border bg-muted/30 p-4 text-sm sm:grid-cols-3">
      <Fact label="Frequency" value={<span className="capitalize">{plan.frequency}</span>} />
      <Fact label="APR" value={`${formatPercent(plan.apr)} (${plan.interestMethod})`} />
      <Fact label="Terms" value={`${plan.allowedTerms.join(', ')} instalments`} />
      <Fact label="Minimum deposit" value={minimum || 'None'} />
      <Fact label="Service fee per instalment" value={fees} />
      <Fact label="Grace / lock after" value={`${plan.graceDays} days / ${plan.lockAfterDays ?? '—'} days`} />
    </dl>
  );
}

function TermsStep({
  values,
  context,
  errors,
  fieldId,
  onChange,
}: {
  values: WizardValues;
  context: StepContext;
  errors: WizardErrors;
  fieldId: (field: keyof WizardErrors) => string;
  onChange: (change: Partial<WizardValues>, field: keyof WizardErrors) => void;
}) {
  const plan = values.plan as Plan;
  const price = context.cashPrice;
  const least = price === null ? null : minimumDeposit(plan, price);
  const termId = fieldId('term');
  return (
    <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
      <FormField
        id={fieldId('deposit')}
        label={`Deposit (${context.currency})`}
        error={errors.deposit}
        hint={
          price !== null && least !== null
            ? `Cash price ${money(price, context.currency)}; at least ${money(least, context.currency)}.`
            : undefined
        }
      >
        {(control) => (
          <Input
            {...control}
            inputMode="decimal"
            autoComplete="off"
            placeholder={amountPlaceholder(context.currency, least === null ? 0 : Math.ceil(least / 100))}
            value={values.deposit}
            onChange={(event) => onChange({ deposit: event.target.value }, 'deposit')}
            data-testid="input-deposit"
          />
        )}
      </FormField>
      <FormField
        id={termId}
        label="Number of instalments"
        error={errors.term}
        hint={
          values.term
            ? `${values.term} ${plan.frequency} instalments: ${termDuration(plan.frequency, Number(values.term))}.`
            : `Plan ${plan.code} allows ${plan.allowedTerms.join(', ')}.`
        }
      >
        {(control) => (
          <select
            {...control}
            value={values.term}
            onChange={(event) => onChange({ term: event.target.value }, 'term')}
            className="h-9 w-full rounded-md border border-input bg-card px-3 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40 aria-invalid:border-destructive"
            data-testid="select-term"
          >
            <option value="">Choose…</option>
            {plan.allowedTerms.map((term) => (
              <option key={term} value={term}>
                {term}{' '}
                {plan.frequency === 'daily' ? 'days' : plan.frequency === 'weekly' ? 'weeks' : 'months'}
              </option>
            ))}
          </select>
        )}
      </FormField>
      {errors.startDate && (
        <p className="flex items-start gap-2 text-destructive text-sm sm:col-span-2" role="alert">
          <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          {errors.startDate}
        </p>
      )}
    </div>
  );
}

function SubmitStep({
  values,
  preview,
  onEdit,
  onToggle,
}: {
  values: WizardValues;
  preview: ContractPreview;
  onEdit: (step: StepId) => void;
  onToggle: (submit: boolean) => void;
}) {
  const checkboxId = useId();
  const m = (minor: number) => money(minor, preview.currency);
  const rows: Array<[string, string, StepId]> = [
    [
      'Customer',
      values.customer ? `${values.customer.name} (${values.customer.accountNumber})` : '',
      'customer',
    ],
    ['Device', values.device ? deviceLabel(values.device) : '', 'device'],
    ['Plan', values.plan ? `${values.plan.code} · ${values.plan.name}` : '', 'plan'],
    [
      'Deposit and term',
      `${m(preview.deposit)} now, then ${preview.term} ${preview.frequency} payments of ${m(preview.regularPayment)}`,
      'terms',
    ],
  ];
  return (
    <div className="grid grid-cols-1 gap-5">
      <dl className="divide-y rounded-lg border" data-testid="list-contract-summary">
        {rows.map(([label, value, target]) => (
          <div key={label} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 px-4 py-3">
            <div className="min-w-0">
              <dt className="text-muted-foreground text-xs">{label}</dt>
              <dd className="font-medium text-sm">{value}</dd>
            </div>
            <Button
              type="button"
              variant="ghost"
              size="sm"
              onClick={() => onEdit(target)}
              aria-label={`Change ${label.toLowerCase()}`}
              data-testid={`button-change-${target}`}
            >
              Change
            </Button>
          </div>
        ))}
        <div className="grid grid-cols-2 gap-4 px-4 py-3 text-sm sm:grid-cols-4">
          <Fact label="Amount financed" value={m(preview.principal)} />
          <Fact label="APR" value={formatPercent(preview.apr)} />
          <Fact label="Total interest and fees" value={m(preview.totalInterest + preview.totalServiceFees)} />
          <Fact label="Total payable" value={m(preview.totalPayable)} testId="text-summary-total" />
        </div>
      </dl>
      <div className="flex items-start gap-3">
        <input
          id={checkboxId}
          type="checkbox"
          checked={values.submitForApproval}
          onChange={(event) => onToggle(event.target.checked)}
          className="mt-0.5 size-4 accent-primary"
          data-testid="checkbox-submit-for-approval"
        />
        <label htmlFor={checkboxId} className="text-sm">
          <span className="font-medium">Submit for approval now</span>
          <span className="block text-muted-foreground">
            A second person with approval rights must approve it before activation. Leave unticked to save a
            draft and submit it later.
          </span>
        </label>
      </div>
    </div>
  );
}
