import { FilePlus2, LifeBuoy, LogOut, type LucideIcon, MailPlus, SunMoon } from 'lucide-react';
import { AREA_PATHS, AREAS } from '@/web/app/areas';
import { helpCentre } from '../help/help-store';
import { contractsSource, customersSource } from './record-sources';
import { NEW_CONTRACT_PATH } from './shortcut-rules';

/**
 * What the command palette searches. A source turns the query into items: local sources (pages,
 * actions) at once; remote sources (customers and contracts, record-sources.ts) by calling the
 * server's list search once typing pauses; the palette drops answers to stale queries.
 */
export interface CommandItem {
  id: string;
  label: string;
  description?: string;
  icon: LucideIcon;
  /** Extra words that should find the item. */
  keywords?: string;
  run: () => void;
}

export interface CommandContext {
  navigate: (path: string) => void;
  isAdmin: boolean;
  toggleTheme: () => void;
  signOut: () => void;
}

interface SourceBase {
  id: string;
  /** Group heading in the results. */
  label: string;
}

/** Items known in the browser: searched as the user types, with no delay. */
export interface LocalCommandSource extends SourceBase {
  kind: 'local';
  /** Items matching the query (all of them for an empty query). */
  search: (query: string, context: CommandContext) => CommandItem[];
}

/** Items found by the server (customers, contracts, devices): asked once typing pauses. */
export interface RemoteCommandSource extends SourceBase {
  kind: 'remote';
  /** Not asked until the query has this many characters. */
  minQueryLength: number;
  search: (query: string, context: CommandContext) => Promise<CommandItem[]>;
}

export type CommandSource = LocalCommandSource | RemoteCommandSource;

/** Every word of the query appears in the item's label, description or keywords. */
export function matchesQuery(
  item: Pick<CommandItem, 'label' | 'description' | 'keywords'>,
  query: string,
): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = `${item.label} ${item.description ?? ''} ${item.keywords ?? ''}`.toLowerCase();
  return words.every((word) => haystack.includes(word));
}

/** Items whose label starts with the query first, then the rest in their own order. */
export function rank<T extends Pick<CommandItem, 'label'>>(items: T[], query: string): T[] {
  const q = query.trim().toLowerCase();
  if (!q) return items;
  const starts = items.filter((item) => item.label.toLowerCase().startsWith(q));
  return [...starts, ...items.filter((item) => !starts.includes(item))];
}

const filterRank = (items: CommandItem[], query: string) =>
  rank(
    items.filter((item) => matchesQuery(item, query)),
    query,
  );

export const pagesSource: LocalCommandSource = {
  kind: 'local',
  id: 'pages',
  label: 'Pages',
  search: (query, context) =>
    filterRank(
      AREA_PATHS.filter(
        (path) => !path.includes(':') && (context.isAdmin || AREAS[path].group !== 'admin'),
      ).map((path) => ({
        id: `page:${path}`,
        label: AREAS[path].title,
        description: AREAS[path].summary,
        icon: AREAS[path].icon,
        keywords: path,
        run: () => context.navigate(path),
      })),
      query,
    ),
};

export const actionsSource: LocalCommandSource = {
  kind: 'local',
  id: 'actions',
  label: 'Actions',
  search: (query, context) => {
    const items: CommandItem[] = [
      {
        id: 'action:new-contract',
        label: 'New contract',
        description: 'Start a device-financing contract (Ctrl+N)',
        icon: FilePlus2,
        keywords: 'create finance',
        run: () => context.navigate(NEW_CONTRACT_PATH),
      },
      ...(context.isAdmin
        ? [
            {
              id: 'action:new-invite',
              label: 'New invite',
              description: 'Invite a colleague with a one-time link',
              icon: MailPlus,
              keywords: 'user staff add colleague invitation',
              run: () => context.navigate('/admin/users?tab=invites'),
            },
          ]
        : []),
      {
        id: 'action:help',
        label: 'Open help centre',
        description: 'Tutorials, what’s new and quick help (Ctrl+?)',
        icon: LifeBuoy,
        keywords: 'tutorial support shortcuts',
        run: () => helpCentre.open(),
      },
      {
        id: 'action:theme',
        label: 'Toggle theme',
        description: 'Switch between light and dark',
        icon: SunMoon,
        keywords: 'dark light mode appearance',
        run: context.toggleTheme,
      },
      {
        id: 'action:sign-out',
        label: 'Sign out',
        description: 'End this session',
        icon: LogOut,
        keywords: 'logout log out',
        run: context.signOut,
      },
    ];
    return filterRank(items, query);
  },
};

export const COMMAND_SOURCES: CommandSource[] = [
  actionsSource,
  pagesSource,
  customersSource,
  contractsSource,
];
