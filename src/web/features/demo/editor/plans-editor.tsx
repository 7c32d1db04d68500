import { DEMO_LIMITS, type DemoPlan } from '@/contracts/demo';
import { FormField } from '@/web/components/form-field';
import { Input } from '@/web/components/ui/input';
import { NativeSelect } from '@/web/components/ui/native-select';
import { FREQUENCY_LABELS } from '@/web/features/plans/format';
import { blankPlan, type FieldErrors, type PlanForm } from './form-model';
import { ListEditor, NameField } from './list-editor';

type NumberField = 'depositPercent' | 'term' | 'apr';
const NUMBER_FIELDS: Array<{ field: NumberField; label: string; mode: 'numeric' | 'decimal' }> = [
  { field: 'depositPercent', label: 'Deposit (% of the price)', mode: 'numeric' },
  { field: 'term', label: 'Term (number of payments)', mode: 'numeric' },
  { field: 'apr', label: 'APR (% a year)', mode: 'decimal' },
];

/** The demo's plans, as the calculator takes them: deposit share, frequency, term, APR, method. */
export function PlansEditor({
  plans,
  errors,
  onChange,
}: {
  plans: PlanForm[];
  errors: FieldErrors;
  onChange: (plans: PlanForm[]) => void;
}) {
  return (
    <ListEditor
      noun="plan"
      items={plans}
      max={DEMO_LIMITS.plans}
      blank={blankPlan}
      errors={errors}
      onChange={onChange}
    >
      {(plan, fields) => {
        const { id, error, update } = fields;
        return (
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
            <NameField item={plan} fields={fields} />
            <FormField id={`${id}-frequency`} label="Payments" error={error('frequency')}>
              {(control) => (
                <NativeSelect
                  {...control}
                  value={plan.frequency}
                  onChange={(event) => update({ frequency: event.target.value as DemoPlan['frequency'] })}
                  data-testid={`select-${id}-frequency`}
                >
                  {Object.entries(FREQUENCY_LABELS).map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </NativeSelect>
              )}
            </FormField>
            <FormField id={`${id}-method`} label="Interest" error={error('interestMethod')}>
              {(control) => (
                <NativeSelect
                  {...control}
                  value={plan.interestMethod}
                  onChange={(event) =>
                    update({ interestMethod: event.target.value as DemoPlan['interestMethod'] })
                  }
                  data-testid={`select-${id}-method`}
                >
                  <option value="declining">On the reducing balance</option>
                  <option value="flat">Flat</option>
                </NativeSelect>
              )}
            </FormField>
            {NUMBER_FIELDS.map(({ field, label, mode }) => (
              <FormField key={field} id={`${id}-${field}`} label={label} error={error(field)}>
                {(control) => (
                  <Input
                    {...control}
                    inputMode={mode}
                    value={plan[field]}
                    onChange={(event) => update({ [field]: event.target.value })}
                    data-testid={`input-${id}-${field}`}
                  />
                )}
              </FormField>
            ))}
          </div>
        );
      }}
    </ListEditor>
  );
}
