import { Ellipsis, LogOut } from 'lucide-react';
import { Link, useLocation } from 'wouter';
import type { User } from '@/contracts/auth';
import { isAdmin } from '@/contracts/roles';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/web/components/ui/dropdown-menu';
import { cn } from '@/web/lib/utils';
import { displayName, isActivePath, navTestId } from '../nav-rules';
import { ACCOUNT, MOBILE_ADMINISTRATION, MOBILE_LINKS, TOOLS } from '../navigation';
import { NavMenuGroup } from './menu-items';
import { NotificationsBellSlot } from './notifications-slot';
import { useLogout } from './use-logout';

const itemClass =
  'flex min-w-0 flex-1 flex-col items-center justify-center gap-1 rounded-md px-1 py-1.5 text-[11px] font-medium text-muted-foreground transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none';

/** Bottom bar below the md breakpoint: Home, Contracts, Collections, CRM, notifications, More. */
export function MobileNav({ user }: { user: User }) {
  const [location] = useLocation();
  const logout = useLogout();
  const moreItems = [...TOOLS, ...ACCOUNT, ...(isAdmin(user) ? MOBILE_ADMINISTRATION : [])];
  const moreActive = moreItems.some((item) => isActivePath(item.path, location));
  return (
    <nav
      aria-label="Main mobile"
      className="fixed inset-x-0 bottom-0 z-40 border-t bg-card/95 pb-[env(safe-area-inset-bottom)] backdrop-blur md:hidden"
    >
      <div className="mx-auto flex h-16 max-w-lg items-stretch gap-1 px-2 py-1">
        {MOBILE_LINKS.map(({ path, label, icon: Icon }) => {
          const active = isActivePath(path, location);
          return (
            <Link
              key={path}
              href={path}
              aria-current={active ? 'page' : undefined}
              data-testid={navTestId(path, 'mobile-nav')}
              className={cn(itemClass, active && 'bg-primary/10 text-primary')}
            >
              <Icon className="size-5" aria-hidden="true" />
              <span className="truncate">{label}</span>
            </Link>
          );
        })}
        <NotificationsBellSlot placement="bottom-bar" />
        <DropdownMenu>
          <DropdownMenuTrigger
            className={cn(
              itemClass,
              'data-[state=open]:text-primary',
              moreActive && 'bg-primary/10 text-primary',
            )}
            data-testid="button-more-menu"
          >
            <Ellipsis className="size-5" aria-hidden="true" />
            <span>More</span>
          </DropdownMenuTrigger>
          <DropdownMenuContent side="top" align="end" className="w-72" data-testid="menu-more">
            <NavMenuGroup label="Tools" items={TOOLS} testId="group-tools" testIdPrefix="mobile-nav" />
            {isAdmin(user) && (
              <>
                <DropdownMenuSeparator />
                <NavMenuGroup
                  label="Administration"
                  items={MOBILE_ADMINISTRATION}
                  testId="group-administration"
                  testIdPrefix="mobile-nav"
                />
              </>
            )}
            <DropdownMenuSeparator />
            <NavMenuGroup
              label="Account"
              items={ACCOUNT}
              testId="group-account"
              testIdPrefix="mobile-account"
            />
            <DropdownMenuItem
              variant="destructive"
              onSelect={() => void logout()}
              data-testid="button-logout"
            >
              <LogOut aria-hidden="true" />
              Sign Out
            </DropdownMenuItem>
            <DropdownMenuSeparator />
            <DropdownMenuLabel className="truncate font-normal normal-case tracking-normal">
              Signed in as {displayName(user)}
            </DropdownMenuLabel>
          </DropdownMenuContent>
        </DropdownMenu>
      </div>
    </nav>
  );
}
