import { Settings } from 'lucide-react';
import { useLocation } from 'wouter';
import type { User } from '@/contracts/auth';
import { isAdmin } from '@/contracts/roles';
import { Button } from '@/web/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/web/components/ui/dropdown-menu';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/web/components/ui/tooltip';
import { isActivePath } from '../nav-rules';
import { ADMINISTRATION, TOOLS } from '../navigation';
import { NavMenuGroup } from './menu-items';

/** Desktop overflow menu: Tools, and Administration for admins and the owner. */
export function SettingsMenu({ user }: { user: User }) {
  const [location] = useLocation();
  const items = isAdmin(user) ? [...TOOLS, ...ADMINISTRATION] : TOOLS;
  const active = items.some((item) => isActivePath(item.path, location));
  return (
    <DropdownMenu>
      <Tooltip>
        <TooltipTrigger asChild>
          <DropdownMenuTrigger asChild>
            <Button
              variant="ghost"
              size="icon"
              aria-label="Settings and tools"
              data-testid="button-settings-menu"
              data-active={active || undefined}
              className="data-active:bg-primary/10 data-active:text-primary data-[state=open]:bg-accent"
            >
              <Settings className="size-5" aria-hidden="true" />
            </Button>
          </DropdownMenuTrigger>
        </TooltipTrigger>
        <TooltipContent>Settings and tools</TooltipContent>
      </Tooltip>
      <DropdownMenuContent align="end" className="w-64" data-testid="menu-settings">
        <NavMenuGroup label="Tools" items={TOOLS} testId="group-tools" testIdPrefix="nav" />
        {isAdmin(user) && (
          <>
            <DropdownMenuSeparator />
            <NavMenuGroup
              label="Administration"
              items={ADMINISTRATION}
              testId="group-administration"
              testIdPrefix="nav"
            />
          </>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
