import { Plus } from 'lucide-react';
import { DEMO_LIMITS, type DemoPlan } from '@/contracts/demo';
import { FormField } from '@/web/components/form-field';
import { Button } from '@/web/components/ui/button';
import { Input } from '@/web/components/ui/input';
import { NativeSelect } from '@/web/components/ui/native-select';
import { blankPlan, type FieldErrors, moved, type PlanForm } from './form-model';
import { ItemControls } from './item-controls';

type TextField = 'name' | 'depositPercent' | 'term' | 'apr';
const NUMBER_FIELDS: Array<{ field: TextField; label: string; mode: 'numeric' | 'decimal' }> = [
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
  const update = (index: number, change: Partial<PlanForm>) =>
    onChange(plans.map((plan, at) => (at === index ? { ...plan, ...change } : plan)));
  return (
    <div className="grid grid-cols-1 gap-4">
      {errors.plans && <p className="font-medium text-destructive text-sm">{errors.plans}</p>}
      <ol className="grid grid-cols-1 gap-4">
        {plans.map((plan, index) => {
          const id = `plan-${index}`;
          const error = (field: string) => errors[`plans.${index}.${field}`];
          return (
            <li
              key={plan.id}
              className="grid grid-cols-1 gap-3 rounded-xl border p-4"
              data-testid={`editor-plan-${index}`}
            >
              <div className="flex items-center justify-between gap-2">
                <h3 className="font-medium text-sm">
                  Plan {index + 1}
                  {plan.name && <span className="text-muted-foreground">: {plan.name}</span>}
                </h3>
                <ItemControls
                  label={plan.name || `plan ${index + 1}`}
                  index={index}
                  count={plans.length}
                  minimum={1}
                  onMove={(to) => onChange(moved(plans, index, to))}
                  onRemove={() => onChange(plans.filter((_, at) => at !== index))}
                  testId={id}
                />
              </div>
              <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
                <FormField id={`${id}-name`} label="Name" error={error('name') ?? error('id')}>
                  {(control) => (
                    <Input
                      {...control}
                      value={plan.name}
                      onChange={(event) => update(index, { name: event.target.value })}
                      data-testid={`input-${id}-name`}
                    />
                  )}
                </FormField>
                <FormField id={`${id}-frequency`} label="Payments" error={error('frequency')}>
                  {(control) => (
                    <NativeSelect
                      {...control}
                      value={plan.frequency}
                      onChange={(event) =>
                        update(index, { frequency: event.target.value as DemoPlan['frequency'] })
                      }
                      data-testid={`select-${id}-frequency`}
                    >
                      <option value="daily">Daily</option>
                      <option value="weekly">Weekly</option>
                      <option value="monthly">Monthly</option>
                    </NativeSelect>
                  )}
                </FormField>
                <FormField id={`${id}-method`} label="Interest" error={error('interestMethod')}>
                  {(control) => (
                    <NativeSelect
                      {...control}
                      value={plan.interestMethod}
                      onChange={(event) =>
                        update(index, { interestMethod: event.target.value as DemoPlan['interestMethod'] })
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
                        onChange={(event) => update(index, { [field]: event.target.value })}
                        data-testid={`input-${id}-${field}`}
                      />
                    )}
                  </FormField>
                ))}
              </div>
            </li>
          );
        })}
      </ol>
      <div>
        <Button
          type="button"
          variant="outline"
          disabled={plans.length >= DEMO_LIMITS.plans}
          onClick={() => onChange([...plans, blankPlan()])}
          data-testid="button-add-plan"
        >
          <Plus aria-hidden="true" />
          Add a plan
        </Button>
      </div>
    </div>
  );
}
