import { CornerDownLeft, Search } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import type { User } from '@/contracts/auth';
import { isAdmin } from '@/contracts/roles';
import { useLogout } from '@/web/app/shell/use-logout';
import { useTheme } from '@/web/app/theme';
import { Spinner } from '@/web/components/loaders';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/web/components/ui/dialog';
import { cn } from '@/web/lib/utils';
import { trackEvent } from '../activity/tracker';
import {
  COMMAND_SOURCES,
  type CommandContext,
  type CommandItem,
  type CommandSource,
  type RemoteCommandSource,
} from './command-sources';
import { commandPalette, useCommandPaletteOpen } from './palette-store';

/** Asynchronous sources are asked once typing pauses for this long. */
export const ASYNC_SEARCH_DELAY_MS = 200;

interface Group {
  source: CommandSource;
  items: CommandItem[];
}

/**
 * Results for the query: local sources computed during render (so Enter always acts on what is
 * shown), remote ones fetched after a pause, answers to an older query dropped.
 */
function useCommandResults(query: string, context: CommandContext, sources: CommandSource[]) {
  const trimmed = query.trim();
  const local = useMemo(
    () =>
      sources.flatMap((source) =>
        source.kind === 'local' ? [{ source, items: source.search(trimmed, context) }] : [],
      ),
    [sources, trimmed, context],
  );
  const [remote, setRemote] = useState<{ query: string; groups: Group[] }>({ query: '', groups: [] });
  const [searching, setSearching] = useState(false);
  useEffect(() => {
    const asked = sources.filter(
      (source): source is RemoteCommandSource =>
        source.kind === 'remote' && trimmed.length >= source.minQueryLength,
    );
    if (asked.length === 0) {
      setSearching(false);
      setRemote({ query: trimmed, groups: [] });
      return;
    }
    let cancelled = false;
    setSearching(true);
    const timer = setTimeout(() => {
      void Promise.all(
        asked.map(async (source) => {
          try {
            return { source, items: await source.search(trimmed, context) };
          } catch {
            return { source, items: [] };
          }
        }),
      ).then((groups) => {
        if (cancelled) return;
        setRemote({ query: trimmed, groups });
        setSearching(false);
      });
    }, ASYNC_SEARCH_DELAY_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [trimmed, context, sources]);
  const groups = [...local, ...(remote.query === trimmed ? remote.groups : [])];
  return { groups: groups.filter((group) => group.items.length > 0), searching };
}

/** Ctrl+K: search pages, actions, customers and contracts; run with Enter or a click. */
export default function CommandPalette({
  user,
  sources = COMMAND_SOURCES,
}: {
  user: User;
  sources?: CommandSource[];
}) {
  const open = useCommandPaletteOpen();
  const [, navigate] = useLocation();
  const { resolvedTheme, setTheme } = useTheme();
  const logout = useLogout();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  const listRef = useRef<HTMLDivElement>(null);

  const context = useMemo<CommandContext>(
    () => ({
      navigate,
      isAdmin: isAdmin(user),
      toggleTheme: () => setTheme(resolvedTheme === 'dark' ? 'light' : 'dark'),
      signOut: () => void logout(),
    }),
    [navigate, user, resolvedTheme, setTheme, logout],
  );
  const { groups, searching } = useCommandResults(query, context, sources);
  const flat = groups.flatMap((group) => group.items);

  // A new query starts at the first result; closing clears the query.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the query changes
  useEffect(() => setActive(0), [query]);
  useEffect(() => {
    if (!open) setQuery('');
  }, [open]);
  useEffect(() => {
    listRef.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  const run = (item: CommandItem | undefined) => {
    if (!item) return;
    commandPalette.close();
    trackEvent('command_palette_run', { id: item.id });
    item.run();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setActive((i) => (flat.length ? (i + 1) % flat.length : 0));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((i) => (flat.length ? (i - 1 + flat.length) % flat.length : 0));
    } else if (event.key === 'Home' && event.ctrlKey) {
      event.preventDefault();
      setActive(0);
    } else if (event.key === 'End' && event.ctrlKey) {
      event.preventDefault();
      setActive(Math.max(0, flat.length - 1));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      run(flat[Math.min(active, flat.length - 1)]);
    }
  };

  const optionId = (index: number) => `${listId}-option-${index}`;
  let index = -1;

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? commandPalette.open() : commandPalette.close())}>
      <DialogContent
        showClose={false}
        className="top-[10vh] max-w-xl translate-y-0 gap-0 overflow-hidden p-0"
        data-testid="dialog-command-palette"
      >
        <DialogTitle className="sr-only">Search pages, actions, customers and contracts</DialogTitle>
        <DialogDescription className="sr-only">
          Type to filter, move with the arrow keys and press Enter to go.
        </DialogDescription>
        <div className="flex items-center gap-2 border-b px-3">
          <Search className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          <input
            role="combobox"
            aria-expanded="true"
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={flat.length ? optionId(Math.min(active, flat.length - 1)) : undefined}
            aria-label="Search pages, actions, customers and contracts"
            placeholder="Search pages, customers, contracts…"
            className="h-12 min-w-0 flex-1 bg-transparent text-base outline-none placeholder:text-muted-foreground md:text-sm"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            onKeyDown={onKeyDown}
            autoComplete="off"
            spellCheck={false}
            data-testid="input-command-search"
          />
          {searching && <Spinner className="size-4 text-muted-foreground" />}
        </div>
        <div
          ref={listRef}
          id={listId}
          role="listbox"
          aria-label="Results"
          className="max-h-[min(60vh,26rem)] overflow-y-auto p-1.5"
          data-testid="list-command-results"
        >
          {groups.map((group) => (
            // biome-ignore lint/a11y/useSemanticElements: a group of options inside a listbox (ARIA combobox pattern)
            <div key={group.source.id} role="group" aria-labelledby={`${listId}-${group.source.id}`}>
              <div
                id={`${listId}-${group.source.id}`}
                className="px-2 pt-2 pb-1 font-semibold text-muted-foreground text-xs uppercase tracking-wide"
              >
                {group.source.label}
              </div>
              {group.items.map((item) => {
                index += 1;
                const i = index;
                const Icon = item.icon;
                const selected = i === Math.min(active, flat.length - 1);
                return (
                  <div
                    key={item.id}
                    id={optionId(i)}
                    role="option"
                    aria-selected={selected}
                    tabIndex={-1}
                    data-index={i}
                    data-testid={`command-${item.id.replace(/[^a-z0-9]+/gi, '-').replace(/-$/, '')}`}
                    className={cn(
                      'flex cursor-pointer items-center gap-3 rounded-md px-2 py-2 text-sm',
                      selected && 'bg-accent text-accent-foreground',
                    )}
                    onMouseMove={() => setActive(i)}
                    onMouseDown={(event) => event.preventDefault()}
                    onClick={() => run(item)}
                    onKeyDown={() => undefined}
                  >
                    <Icon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                    <span className="min-w-0 flex-1">
                      <span className="block truncate font-medium">{item.label}</span>
                      {item.description && (
                        <span className="block truncate text-muted-foreground text-xs">
                          {item.description}
                        </span>
                      )}
                    </span>
                    {selected && (
                      <CornerDownLeft className="size-4 text-muted-foreground" aria-hidden="true" />
                    )}
                  </div>
                );
              })}
            </div>
          ))}
          {flat.length === 0 && !searching && (
            <p
              className="px-3 py-8 text-center text-muted-foreground text-sm"
              data-testid="text-command-empty"
            >
              Nothing matches “{query.trim()}”.
            </p>
          )}
        </div>
        <div className="flex items-center gap-3 border-t px-3 py-2 text-muted-foreground text-xs">
          <span>↑↓ to move</span>
          <span>Enter to go</span>
          <span>Esc to close</span>
        </div>
      </DialogContent>
    </Dialog>
  );
}
