import { LogOut } from 'lucide-react';
import { Link } from 'wouter';
import type { User } from '@/contracts/auth';
import { Avatar, AvatarFallback } from '@/web/components/ui/avatar';
import { Button } from '@/web/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuGroup,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/web/components/ui/dropdown-menu';
import { avatarLetter, displayName, roleDescription } from '../nav-rules';
import { ACCOUNT } from '../navigation';
import { useLogout } from './use-logout';

const ACCOUNT_TEST_IDS: Record<string, string> = {
  '/profile': 'menu-edit-profile',
  '/settings': 'menu-preferences',
  '/help': 'menu-help',
};

/** Desktop profile menu (seed "Profile menu"). */
export function ProfileMenu({ user }: { user: User }) {
  const logout = useLogout();
  const name = displayName(user);
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          className="h-10 gap-2 rounded-full px-1 lg:pr-3"
          aria-label={`Account menu for ${name}`}
          data-testid="button-profile-menu"
        >
          <Avatar>
            <AvatarFallback data-testid="avatar-letter">{avatarLetter(user)}</AvatarFallback>
          </Avatar>
          <span className="hidden max-w-40 truncate font-medium text-sm lg:inline">
            {user.firstName || name}
          </span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-64" data-testid="menu-profile">
        <DropdownMenuLabel className="normal-case tracking-normal">
          <span className="block truncate font-semibold text-foreground text-sm" data-testid="text-user-name">
            {name}
          </span>
          <span
            className="block truncate font-normal text-muted-foreground text-xs"
            data-testid="text-user-email"
          >
            {user.email}
          </span>
          <span className="mt-1 block font-normal text-muted-foreground text-xs">
            {roleDescription(user)}
          </span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuGroup>
          {ACCOUNT.map(({ path, label, icon: Icon }) => (
            <DropdownMenuItem key={path} asChild>
              <Link href={path} data-testid={ACCOUNT_TEST_IDS[path]}>
                <Icon aria-hidden="true" />
                {label}
              </Link>
            </DropdownMenuItem>
          ))}
        </DropdownMenuGroup>
        <DropdownMenuSeparator />
        <DropdownMenuItem variant="destructive" onSelect={() => void logout()} data-testid="button-logout">
          <LogOut aria-hidden="true" />
          Sign Out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
