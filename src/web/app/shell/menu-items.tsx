import { useId } from 'react';
import { Link, useLocation } from 'wouter';
import { DropdownMenuGroup, DropdownMenuItem, DropdownMenuLabel } from '@/web/components/ui/dropdown-menu';
import { isActivePath, navTestId } from '../nav-rules';
import type { NavItem } from '../navigation';

interface MenuGroupProps {
  label: string;
  items: NavItem[];
  testId: string;
  /** Prefix of each item's test id: `nav` (desktop) or `mobile-nav`. */
  testIdPrefix: string;
}

/** A labelled group of navigation links inside a dropdown menu. */
export function NavMenuGroup({ label, items, testId, testIdPrefix }: MenuGroupProps) {
  const [location] = useLocation();
  const labelId = useId();
  return (
    <DropdownMenuGroup aria-labelledby={labelId} data-testid={testId}>
      <DropdownMenuLabel id={labelId}>{label}</DropdownMenuLabel>
      {items.map(({ path, label: itemLabel, icon: Icon }) => {
        const active = isActivePath(path, location);
        return (
          <DropdownMenuItem key={`${path}-${itemLabel}`} asChild>
            <Link
              href={path}
              aria-current={active ? 'page' : undefined}
              data-testid={navTestId(path, testIdPrefix)}
              className={active ? 'bg-accent/60 font-medium text-primary [&_svg]:!text-primary' : undefined}
            >
              <Icon aria-hidden="true" />
              {itemLabel}
            </Link>
          </DropdownMenuItem>
        );
      })}
    </DropdownMenuGroup>
  );
}
