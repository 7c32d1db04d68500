import { Filter, X } from 'lucide-react';
import { type ComponentProps, type FormEvent, Fragment, useId, useState } from 'react';
import { AUDIT_ACTIONS, AUDIT_ENTITY_TYPES } from '@/contracts/audit';
import { FormField } from '@/web/components/form-field';
import { Button } from '@/web/components/ui/button';
import { Input } from '@/web/components/ui/input';

export interface AuditFilters {
  action: string;
  entityType: string;
  entityId: string;
  actor: string;
  from: string;
  to: string;
}

export const NO_FILTERS: AuditFilters = {
  action: '',
  entityType: '',
  entityId: '',
  actor: '',
  from: '',
  to: '',
};

const DATE = { type: 'date', className: 'dark:[color-scheme:dark]' } as const;

/**
 * The form's fields, in order: the filter each sets, its label, the suffix of its id and test id,
 * the values it suggests (a datalist: the server takes any text) and its input's own attributes.
 */
const FIELDS: ReadonlyArray<{
  key: keyof AuditFilters;
  slug: string;
  label: string;
  suggestions?: readonly string[];
  input: ComponentProps<'input'>;
}> = [
  {
    key: 'action',
    slug: 'action',
    label: 'Action',
    suggestions: AUDIT_ACTIONS,
    input: { placeholder: 'e.g. auth.login' },
  },
  {
    key: 'entityType',
    slug: 'entity-type',
    label: 'Entity type',
    suggestions: AUDIT_ENTITY_TYPES,
    input: { placeholder: 'e.g. user' },
  },
  { key: 'entityId', slug: 'entity-id', label: 'Entity id', input: { spellCheck: false } },
  {
    key: 'actor',
    slug: 'actor',
    label: 'Actor email contains',
    input: { type: 'search', spellCheck: false },
  },
  { key: 'from', slug: 'from', label: 'From', input: DATE },
  { key: 'to', slug: 'to', label: 'To', input: DATE },
];

/**
 * The audit log's filters, edited here and handed to the log on submit (a reversed date range is
 * refused under "From"); Clear empties them, and is offered while any is set or typed.
 */
export function AuditFilterForm({
  filtered,
  onApply,
}: {
  /** Whether the log shows filtered entries. */
  filtered: boolean;
  onApply(filters: AuditFilters): void;
}) {
  const ids = useId();
  const [draft, setDraft] = useState<AuditFilters>(NO_FILTERS);
  const [rangeError, setRangeError] = useState<string | null>(null);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    if (draft.from && draft.to && draft.from > draft.to) {
      setRangeError('The start date must not be after the end date');
      return;
    }
    setRangeError(null);
    onApply(draft);
  };
  const clear = () => {
    setDraft(NO_FILTERS);
    onApply(NO_FILTERS);
    setRangeError(null);
  };

  return (
    <form
      onSubmit={apply}
      noValidate
      aria-label="Filter audit entries"
      className="grid grid-cols-1 gap-3 px-6 sm:grid-cols-2 lg:grid-cols-3"
      data-testid="form-audit-filters"
    >
      {FIELDS.map(({ key, slug, label, suggestions, input }) => (
        <Fragment key={key}>
          <FormField
            id={`${ids}-${slug}`}
            label={label}
            error={key === 'from' ? (rangeError ?? undefined) : undefined}
          >
            {(control) => (
              <Input
                {...control}
                {...input}
                list={suggestions && `${ids}-${slug}s`}
                value={draft[key]}
                onChange={(event) => setDraft((current) => ({ ...current, [key]: event.target.value }))}
                data-testid={`input-audit-${slug}`}
              />
            )}
          </FormField>
          {suggestions && (
            <datalist id={`${ids}-${slug}s`}>
              {suggestions.map((value) => (
                <option key={value} value={value} />
              ))}
            </datalist>
          )}
        </Fragment>
      ))}
      <div className="flex flex-wrap gap-2 sm:col-span-2 lg:col-span-3">
        <Button type="submit" data-testid="button-audit-apply">
          <Filter aria-hidden="true" />
          Apply filters
        </Button>
        {(filtered || Object.values(draft).some(Boolean)) && (
          <Button type="button" variant="ghost" onClick={clear} data-testid="button-audit-clear">
            <X aria-hidden="true" />
            Clear
          </Button>
        )}
      </div>
    </form>
  );
}
