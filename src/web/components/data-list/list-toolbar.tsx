import { Download, Search, X } from 'lucide-react';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { Button } from '@/web/components/ui/button';
import { Input } from '@/web/components/ui/input';

interface ListToolbarProps {
  /** The search in effect (from the address bar). */
  search: string;
  onSearch(q: string): void;
  placeholder: string;
  /** Filter controls, after the search box. */
  children?: ReactNode;
  /** CSV export of every matching row. */
  csvHref?: string;
  /** Shown when a search or filter is in effect. */
  onClear?: (() => void) | undefined;
  testId?: string;
}

/** Search box (applied 300 ms after typing stops, or on Enter), filters, Clear and CSV export. */
export function ListToolbar({
  search,
  onSearch,
  placeholder,
  children,
  csvHref,
  onClear,
  testId = 'list',
}: ListToolbarProps) {
  const [draft, setDraft] = useState(search);
  const id = useId();
  useEffect(() => setDraft(search), [search]);
  useEffect(() => {
    if (draft === search) return;
    const timer = setTimeout(() => onSearch(draft), 300);
    return () => clearTimeout(timer);
  }, [draft, search, onSearch]);

  return (
    <search className="mb-4 flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center">
      <form
        className="relative min-w-0 sm:w-80"
        onSubmit={(event) => {
          event.preventDefault();
          onSearch(draft);
        }}
      >
        <label htmlFor={id} className="sr-only">
          {placeholder}
        </label>
        <Search
          className="-translate-y-1/2 absolute top-1/2 left-2.5 size-4 text-muted-foreground"
          aria-hidden="true"
        />
        <Input
          id={id}
          type="search"
          value={draft}
          placeholder={placeholder}
          onChange={(event) => setDraft(event.target.value)}
          className="pl-8"
          data-testid={`input-search-${testId}`}
        />
      </form>
      {children}
      <div className="flex gap-2 sm:ml-auto">
        {onClear && (
          <Button variant="ghost" size="sm" onClick={onClear} data-testid={`button-clear-${testId}`}>
            <X className="size-4" aria-hidden="true" /> Clear
          </Button>
        )}
        {csvHref && (
          <Button variant="outline" size="sm" asChild>
            <a href={csvHref} download data-testid={`link-export-${testId}`}>
              <Download className="size-4" aria-hidden="true" /> Export CSV
            </a>
          </Button>
        )}
      </div>
    </search>
  );
}
