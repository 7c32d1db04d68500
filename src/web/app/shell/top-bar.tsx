import { Search } from 'lucide-react';
import { Link, useLocation } from 'wouter';
import type { User } from '@/contracts/auth';
import { Brand } from '@/web/components/brand';
import { ThemeToggle } from '@/web/components/theme-toggle';
import { Button } from '@/web/components/ui/button';
import { Separator } from '@/web/components/ui/separator';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/web/components/ui/tooltip';
import { BusinessDateBadge } from '@/web/features/settings/business-date-badge';
import { commandPalette } from '@/web/features/shortcuts/palette-store';
import { cn } from '@/web/lib/utils';
import { isActivePath, navTestId } from '../nav-rules';
import { DESKTOP_LINKS } from '../navigation';
import { NotificationsBellSlot } from './notifications-slot';
import { ProfileMenu } from './profile-menu';
import { SettingsMenu } from './settings-menu';

/** Fixed top bar: brand and six icon links on desktop; brand and theme toggle on phones. */
export function TopBar({ user }: { user: User }) {
  const [location] = useLocation();
  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b bg-card/95 backdrop-blur supports-[backdrop-filter]:bg-card/85">
      <div className="mx-auto flex h-14 max-w-7xl items-center gap-3 px-4 sm:px-6">
        <Link
          href="/"
          className="rounded-md focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          aria-label="DeviceFin dashboard"
          data-testid="link-brand"
        >
          <Brand />
        </Link>
        <Separator orientation="vertical" className="mx-2 hidden h-6! md:block" />
        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          {DESKTOP_LINKS.map(({ path, label, icon: Icon }) => {
            const active = isActivePath(path, location);
            return (
              <Tooltip key={path}>
                <TooltipTrigger asChild>
                  <Link
                    href={path}
                    aria-label={label}
                    aria-current={active ? 'page' : undefined}
                    data-testid={navTestId(path)}
                    className={cn(
                      'relative flex size-10 items-center justify-center rounded-md text-muted-foreground transition-colors hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
                      active && 'bg-primary/10 text-primary hover:bg-primary/15 hover:text-primary',
                    )}
                  >
                    <Icon className="size-5" aria-hidden="true" />
                    {active && (
                      <span
                        className="absolute inset-x-2 -bottom-[9px] h-0.5 rounded-full bg-primary"
                        aria-hidden="true"
                      />
                    )}
                  </Link>
                </TooltipTrigger>
                <TooltipContent>{label}</TooltipContent>
              </Tooltip>
            );
          })}
        </nav>
        <div className="ml-auto flex items-center gap-1">
          <BusinessDateBadge />
          <div className="hidden items-center gap-1 md:flex">
            <NotificationsBellSlot placement="top-bar" />
            <SettingsMenu user={user} />
          </div>
          <Tooltip>
            <TooltipTrigger asChild>
              <Button
                variant="ghost"
                size="icon"
                aria-label="Search pages, actions, customers and contracts"
                aria-keyshortcuts="Control+K"
                onClick={commandPalette.open}
                data-testid="button-command-palette"
              >
                <Search className="size-5" aria-hidden="true" />
              </Button>
            </TooltipTrigger>
            <TooltipContent>Search (Ctrl+K)</TooltipContent>
          </Tooltip>
          <Tooltip>
            <TooltipTrigger asChild>
              <ThemeToggle />
            </TooltipTrigger>
            <TooltipContent>Light or dark theme</TooltipContent>
          </Tooltip>
          <div className="hidden md:flex">
            <Separator orientation="vertical" className="mx-2 h-6!" />
            <ProfileMenu user={user} />
          </div>
        </div>
      </div>
    </header>
  );
}
