import type { ReactNode } from 'react';
import type { User } from '@/contracts/auth';
import { MobileNav } from './mobile-nav';
import { TopBar } from './top-bar';

/**
 * The signed-in frame: fixed top bar, page content padded clear of both fixed bars, and the
 * bottom bar on phones.
 */
export function AppShell({ user, children }: { user: User; children: ReactNode }) {
  return (
    <div className="min-h-dvh bg-background">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-primary px-3 py-2 text-primary-foreground focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to main content
      </a>
      <TopBar user={user} />
      <main
        id="main"
        tabIndex={-1}
        className="pt-14 pb-[calc(4rem+env(safe-area-inset-bottom))] outline-none md:pb-0"
      >
        <div className="mx-auto w-full max-w-7xl px-4 py-6 sm:px-6 lg:py-8">{children}</div>
      </main>
      <MobileNav user={user} />
    </div>
  );
}
