import { DEMO_LIMITS } from '@/contracts/demo';
import { FormField } from '@/web/components/form-field';
import { Input } from '@/web/components/ui/input';
import { FREQUENCY_LABELS } from '@/web/features/plans/format';
import { blankPlan, type FieldErrors, type PlanForm } from './form-model';
import { ChoiceField, ListEditor, NameField } from './list-editor';

const INTEREST_METHODS = [
  ['declining', 'On the reducing balance'],
  ['flat', 'Flat'],
] as const;

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
            <ChoiceField
              item={plan}
              fields={fields}
              field="frequency"
              label="Payments"
              options={Object.entries(FREQUENCY_LABELS)}
            />
            <ChoiceField
              item={plan}
              fields={fields}
              field="interestMethod"
              name="method"
              label="Interest"
              options={INTEREST_METHODS}
            />
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
