import { useMutation, useQueryClient } from '@tanstack/react-query';
import { RotateCw, Save, UserPlus } from 'lucide-react';
import { type ReactNode, useMemo, useState } from 'react';
import { type FieldErrors, type Resolver, useForm } from 'react-hook-form';
import { Link } from 'wouter';
import type { User } from '@/contracts/auth';
import { CONSENTS, type Customer, customerEndpoints } from '@/contracts/customers';
import { ERROR_CODES } from '@/contracts/errors';
import { ROLE_LABELS } from '@/contracts/roles';
import { FormActions } from '@/web/components/form-actions';
import { FormAlert } from '@/web/components/form-alert';
import {
  FormInput,
  type FormInputProps,
  FormSelect,
  type FormSelectProps,
} from '@/web/components/form-controls';
import { FormSection } from '@/web/components/form-section';
import { Spinner } from '@/web/components/loaders';
import { Button } from '@/web/components/ui/button';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { formatDateTime } from '@/web/lib/format';
import { applyServerError } from '@/web/lib/forms';
import { invalidate } from '@/web/lib/mutation-effects';
import { queryKeys } from '@/web/lib/query-keys';
import { apiError } from '@/web/lib/queryClient';
import {
  CUSTOMER_FIELDS,
  type CustomerField,
  type CustomerFormValues,
  type Duplicate,
  duplicateOf,
  emptyCustomerValues,
  type FormContext,
  formatPhone,
  isEmptyUpdate,
  phoneHint,
  toCreateBody,
  toE164,
  toUpdateBody,
  validateCustomerForm,
  valuesFromCustomer,
} from './customer-form-model';
import {
  ageFrom,
  CONSENT_HINTS,
  CONSENT_LABELS,
  EMPLOYMENT_LABELS,
  GENDER_LABELS,
  LANGUAGE_LABELS,
} from './format';
import { useCustomerTags, useRegions, useStaff } from './queries';

interface CustomerFormProps {
  /** The customer to edit; without it the form creates one. */
  customer?: Customer;
  context: FormContext;
  user: User;
  onSaved: (customer: Customer) => void;
  onCancel: () => void;
}

type Values = CustomerFormValues;
/** What the text and select helpers set from the field's name. */
type Named = 'form' | 'name' | 'id' | 'label';
const fieldId = (name: CustomerField) => `customer-${name}`;
const testId = (name: string) => `input-${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
/** The sections lay their fields out two by two on wider screens. */
const SECTION_GRID = 'grid grid-cols-1 gap-4 sm:grid-cols-2';
const today = () => new Date().toISOString().slice(0, 10);

/** The tags already in use, so staff reuse "fund-a" rather than write "fund_a". */
const tagHint = (inUse: readonly string[]) =>
  `Words separated by commas, e.g. a fund or a campaign.${
    inUse.length ? ` In use: ${inUse.slice(0, 8).join(', ')}${inUse.length > 8 ? '…' : ''}` : ''
  }`;

/** Create or edit a customer: every field the API takes, checked as typed, refusals under their field. */
export function CustomerForm({ customer, context, user, onSaved, onCancel }: CustomerFormProps) {
  const queryClient = useQueryClient();
  const [alert, setAlert] = useState<ReactNode>(null);
  const [duplicate, setDuplicate] = useState<Duplicate | null>(null);
  const [stale, setStale] = useState(false);

  const resolver = useMemo<Resolver<CustomerFormValues>>(
    () => async (values) => {
      const problems = validateCustomerForm(values, context);
      const names = Object.keys(problems) as CustomerField[];
      if (!names.length) return { values, errors: {} };
      const errors: FieldErrors<CustomerFormValues> = {};
      for (const name of names) errors[name] = { type: 'validate', message: problems[name] };
      return { values: {}, errors };
    },
    [context],
  );
  const form = useForm<CustomerFormValues>({
    resolver,
    defaultValues: customer ? valuesFromCustomer(customer) : emptyCustomerValues(user.id),
    mode: 'onTouched',
  });
  const { errors } = form.formState;

  const save = useMutation({
    mutationFn: (values: CustomerFormValues) =>
      customer
        ? api(customerEndpoints.update, {
            params: { id: customer.id },
            body: toUpdateBody(values, customer, context),
          })
        : api(customerEndpoints.create, { body: toCreateBody(values, context) }),
    onSuccess: (saved) => {
      queryClient.setQueryData(queryKeys.customers.detail(saved.id), saved);
      void invalidate(queryClient, 'customerSaved');
      onSaved(saved);
    },
    onError: (error) => {
      if (apiError(error)?.code === ERROR_CODES.VERSION_CONFLICT) {
        setStale(true);
        return;
      }
      setDuplicate(duplicateOf(error));
      setAlert(applyServerError(form, error, CUSTOMER_FIELDS));
    },
  });

  const reload = useMutation({
    mutationFn: () => api(customerEndpoints.get, { params: { id: customer?.id ?? '' } }),
    onSuccess: (fresh) => {
      queryClient.setQueryData(queryKeys.customers.detail(fresh.id), fresh);
      form.reset(valuesFromCustomer(fresh));
      setStale(false);
    },
  });

  const onSubmit = form.handleSubmit(
    (values) => {
      setAlert(null);
      setDuplicate(null);
      setStale(false);
      if (customer && isEmptyUpdate(toUpdateBody(values, customer, context))) {
        toast({ title: 'Nothing to save', description: 'No field was changed.' });
        onCancel();
        return;
      }
      save.mutate(values);
    },
    () => setAlert('Some fields need attention; each says what is wrong.'),
  );

  const [phone, dateOfBirth, consents] = form.watch(['phone', 'dateOfBirth', 'consents']);
  const e164 = phone.trim() ? toE164(phone, context.country) : null;
  const age = dateOfBirth ? ageFrom(dateOfBirth) : null;
  const regions = useRegions();
  const tags = useCustomerTags();
  const agentOptions = useAgentOptions(user, customer);

  // Each field is named after its value: the id and test id come from the name.
  const bound = (name: CustomerField, label: string) => ({ form, name, id: fieldId(name), label });
  const text = (name: CustomerField, label: string, props: Omit<FormInputProps<Values>, Named> = {}) => (
    <FormInput {...bound(name, label)} type="text" autoComplete="off" data-testid={testId(name)} {...props} />
  );
  const select = (name: CustomerField, label: string, props: Omit<FormSelectProps<Values>, Named>) => (
    <FormSelect {...bound(name, label)} data-testid={testId(name).replace(/^input-/, 'select-')} {...props} />
  );

  const duplicateLink = (field: Duplicate['field']) =>
    duplicate?.field === field && errors[field]?.message === duplicate.message ? (
      <DuplicateLink duplicate={duplicate} />
    ) : null;

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="grid grid-cols-1 gap-4"
      aria-label={customer ? `Edit ${customer.fullName}` : 'New customer'}
      data-testid="form-customer"
    >
      <FormAlert message={alert} />
      {stale && (
        <div
          role="alert"
          className="flex flex-col gap-3 rounded-md border border-warning/50 bg-warning/10 px-3 py-2.5 text-sm sm:flex-row sm:items-center sm:justify-between"
          data-testid="alert-version-conflict"
        >
          <span>
            Someone else saved a change to this customer while you were editing. Load their version, then make
            your change again.
          </span>
          <Button
            type="button"
            variant="outline"
            size="sm"
            onClick={() => reload.mutate()}
            disabled={reload.isPending}
            data-testid="button-reload-customer"
          >
            {reload.isPending ? <Spinner className="size-4" /> : <RotateCw aria-hidden="true" />}
            Load latest
          </Button>
        </div>
      )}

      <FormSection className={SECTION_GRID} title="Identity" description="As written on the national ID.">
        {text('firstName', 'First name', { autoComplete: 'given-name' })}
        {text('lastName', 'Last name', { autoComplete: 'family-name' })}
        {text('otherNames', 'Other names (optional)', { autoComplete: 'additional-name' })}
        <div>
          {text('nationalId', 'National ID (optional)', {
            hint: 'Letters and digits; spaces are ignored. Each ID belongs to one customer.',
          })}
          {duplicateLink('nationalId')}
        </div>
        {text('dateOfBirth', 'Date of birth (optional)', {
          type: 'date',
          hint: age !== null && age >= 0 ? `Age ${age}` : 'Used by the risk scorecard.',
          min: '1900-01-01',
          max: today(),
          controlClassName: 'dark:[color-scheme:dark]',
        })}
        {select('gender', 'Gender (optional)', { emptyOption: 'Not given', options: GENDER_LABELS })}
      </FormSection>

      <FormSection
        className={SECTION_GRID}
        title="Contact"
        description="The phone number is the customer's account for payments and messages."
      >
        <div>
          {text('phone', 'Phone number', {
            type: 'tel',
            autoComplete: 'tel',
            inputMode: 'tel',
            hint: e164 ? `Saved as ${formatPhone(e164)}` : phoneHint(context.country),
          })}
          {duplicateLink('phone')}
        </div>
        {text('email', 'Email (optional)', { type: 'email', autoComplete: 'email', inputMode: 'email' })}
        {text('address', 'Address (optional)', { autoComplete: 'street-address', maxLength: 300 })}
        {text('region', 'Region (optional)', {
          hint: 'County, district or sales area.',
          list: 'customer-regions',
        })}
        <datalist id="customer-regions">
          {(regions.data ?? []).map((region) => (
            <option key={region} value={region} />
          ))}
        </datalist>
        {select('language', 'Message language', {
          hint: 'Messages go in this language when a template has it, else in English.',
          options: LANGUAGE_LABELS,
        })}
        {text('tags', 'Tags (optional)', {
          hint: tagHint(tags.data ?? []),
          maxLength: 900,
        })}
      </FormSection>

      <FormSection
        className={SECTION_GRID}
        title="Work and income"
        description="What the risk scorecard weighs, with the documents."
      >
        {text('occupation', 'Occupation (optional)', { autoComplete: 'organization-title' })}
        {select('employment', 'Employment (optional)', {
          emptyOption: 'Not given',
          options: EMPLOYMENT_LABELS,
        })}
        {text('monthlyIncome', `Monthly income in ${context.currency} (optional)`, {
          inputMode: 'decimal',
          hint: `Before deductions, e.g. 45000 or 45,000.00 ${context.currency}.`,
        })}
        {select('assignedAgentId', 'Assigned agent', {
          hint: 'Who follows this customer up.',
          emptyOption: 'Nobody yet',
          options: agentOptions,
          'data-testid': 'select-assigned-agent',
        })}
      </FormSection>

      <FormSection
        title="Consents"
        description="Ask the customer for each one. Giving or withdrawing a consent is recorded with its time."
      >
        <fieldset className="grid grid-cols-1 gap-3 sm:grid-cols-2" data-testid="group-consents">
          <legend className="sr-only">Consents</legend>
          {CONSENTS.map((name) => {
            const givenAt = customer?.consents[name] ?? null;
            const checked = consents[name];
            let status: string;
            if (customer && checked !== (givenAt !== null)) {
              status = checked
                ? 'Will be recorded as given when you save'
                : 'Will be withdrawn when you save';
            } else if (givenAt) {
              status = `Given ${formatDateTime(givenAt)}`;
            } else {
              status = customer ? 'Not given' : CONSENT_HINTS[name];
            }
            const id = `customer-consent-${name}`;
            return (
              <div key={name} className="flex items-start gap-3 rounded-md border p-3">
                <input
                  id={id}
                  type="checkbox"
                  className="mt-0.5 size-4 shrink-0 accent-primary"
                  aria-describedby={`${id}-status`}
                  data-testid={`checkbox-consent-${name}`}
                  {...form.register(`consents.${name}`)}
                />
                <div className="grid grid-cols-1 gap-0.5">
                  <label htmlFor={id} className="font-medium text-sm leading-none">
                    {CONSENT_LABELS[name]}
                  </label>
                  <span
                    id={`${id}-status`}
                    className="text-muted-foreground text-xs"
                    data-testid={`text-consent-status-${name}`}
                  >
                    {status}
                  </span>
                </div>
              </div>
            );
          })}
        </fieldset>
      </FormSection>

      <FormActions
        testName="customer"
        onCancel={onCancel}
        pending={save.isPending}
        icon={customer ? <Save aria-hidden="true" /> : <UserPlus aria-hidden="true" />}
        submitLabel={customer ? 'Save changes' : 'Create customer'}
      />
    </form>
  );
}

/** "Open Amina Otieno (C-000123)": the customer who already has the phone or ID. */
function DuplicateLink({ duplicate: { customer } }: { duplicate: Duplicate }) {
  return (
    <p className="mt-1.5 text-xs">
      <Link
        href={`/customers/${encodeURIComponent(customer.customerId)}`}
        className="font-medium text-primary underline-offset-4 hover:underline"
        data-testid="link-duplicate-customer"
      >
        Open {customer.name} ({customer.accountNumber})
      </Link>
    </p>
  );
}

/** The people a customer can be assigned to: me, the current agent, and (for administrators) all staff. */
function useAgentOptions(user: User, customer: Customer | undefined): [string, string][] {
  const staff = useStaff(user);
  return useMemo(() => {
    const options = new Map<string, string>([[user.id, `${user.firstName} ${user.lastName} (you)`]]);
    const current = customer?.assignedAgent;
    if (current && !options.has(current.id)) options.set(current.id, current.name);
    for (const person of staff.data ?? []) {
      if (!options.has(person.id)) {
        options.set(person.id, `${person.firstName} ${person.lastName} · ${ROLE_LABELS[person.role]}`);
      }
    }
    return [...options];
  }, [user, customer?.assignedAgent, staff.data]);
}
