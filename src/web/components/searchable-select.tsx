import { Check, ChevronsUpDown, Search } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Popover, PopoverContent, PopoverTrigger } from '@/web/components/ui/popover';
import { cn } from '@/web/lib/utils';

export interface SelectOption {
  value: string;
  label: string;
}

interface SearchableSelectProps {
  id: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  options: readonly SelectOption[];
  /** Accessible name of the search box: 'Search time zones'. */
  searchLabel: string;
  placeholder?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string | undefined;
  'data-testid'?: string;
  /**
   * Server search: called with the typed text (debounce it yourself); `options` are then the
   * server's matches and are shown as they come, without filtering them again here.
   */
  onQueryChange?: (query: string) => void;
  /** The server search is running (with onQueryChange). */
  loading?: boolean;
}

const MAX_SHOWN = 200;

/**
 * A select for long lists (time zones, currencies, countries): a button that opens a search box
 * with the matching options; arrows move, Enter chooses, Escape closes.
 */
export function SearchableSelect({
  id,
  value,
  onChange,
  onBlur,
  options,
  searchLabel,
  placeholder = 'Choose…',
  'aria-invalid': invalid,
  'aria-describedby': describedBy,
  'data-testid': testId,
  onQueryChange,
  loading = false,
}: SearchableSelectProps) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  const listRef = useRef<HTMLDivElement>(null);
  const selected = options.find((option) => option.value === value);

  const matches = useMemo(() => {
    if (onQueryChange) return options.slice(0, MAX_SHOWN);
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    const found = options.filter((option) => {
      const text = `${option.value} ${option.label}`.toLowerCase().replace(/_/g, ' ');
      return words.every((word) => text.includes(word));
    });
    return found.slice(0, MAX_SHOWN);
  }, [options, query, onQueryChange]);

  useEffect(() => {
    if (!open) return;
    setQuery('');
  }, [open]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the list opens or the query changes, not while moving
  useEffect(() => {
    if (!open) return;
    const index = query
      ? 0
      : Math.max(
          0,
          matches.findIndex((option) => option.value === value),
        );
    setActive(index);
  }, [open, query]);
  useEffect(() => {
    listRef.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  const choose = (option: SelectOption | undefined) => {
    if (!option) return;
    onChange(option.value);
    setOpen(false);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setActive((i) => Math.min(i + 1, matches.length - 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((i) => Math.max(i - 1, 0));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      choose(matches[active]);
    }
  };

  return (
    <Popover
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) onQueryChange?.('');
        if (!next) onBlur?.();
      }}
    >
      <PopoverTrigger asChild>
        <button
          id={id}
          type="button"
          aria-haspopup="listbox"
          aria-expanded={open}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          className="flex h-9 w-full items-center justify-between gap-2 rounded-md border border-input bg-card px-3 py-2 text-left text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40 aria-invalid:border-destructive"
          data-testid={testId}
        >
          <span className={cn('truncate', !selected && !value && 'text-muted-foreground')}>
            {selected?.label ?? (value || placeholder)}
          </span>
          <ChevronsUpDown className="size-4 shrink-0 opacity-60" aria-hidden="true" />
        </button>
      </PopoverTrigger>
      <PopoverContent align="start" className="w-(--radix-popover-trigger-width) min-w-64 p-0">
        <div className="flex items-center gap-2 border-b px-3">
          <Search className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          <input
            role="combobox"
            aria-label={searchLabel}
            aria-expanded="true"
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={matches[active] ? `${listId}-${active}` : undefined}
            className="h-10 min-w-0 flex-1 bg-transparent text-base outline-none placeholder:text-muted-foreground md:text-sm"
            placeholder="Type to search…"
            value={query}
            onChange={(event) => {
              setQuery(event.target.value);
              onQueryChange?.(event.target.value);
            }}
            onKeyDown={onKeyDown}
            autoComplete="off"
            spellCheck={false}
            data-testid={testId ? `${testId}-search` : undefined}
          />
        </div>
        <div
          ref={listRef}
          id={listId}
          role="listbox"
          aria-label={searchLabel}
          className="max-h-64 overflow-y-auto p-1"
        >
          {matches.length === 0 ? (
            <p className="px-2 py-6 text-center text-muted-foreground text-sm">
              {loading ? 'Searching…' : 'No match.'}
            </p>
          ) : (
            matches.map((option, index) => (
              <div
                key={option.value}
                id={`${listId}-${index}`}
                role="option"
                tabIndex={-1}
                aria-selected={option.value === value}
                data-index={index}
                className={cn(
                  'flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-sm',
                  index === active && 'bg-accent text-accent-foreground',
                )}
                onMouseMove={() => setActive(index)}
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => choose(option)}
                onKeyDown={() => undefined}
              >
                <Check
                  className={cn('size-4 shrink-0', option.value === value ? 'opacity-100' : 'opacity-0')}
                  aria-hidden="true"
                />
                <span className="truncate">{option.label}</span>
              </div>
            ))
          )}
        </div>
      </PopoverContent>
    </Popover>
  );
}
