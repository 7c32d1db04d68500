import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { Brand } from '@/web/components/brand';
import { ThemeToggle } from '@/web/components/theme-toggle';
import { Button } from '@/web/components/ui/button';
import { cn } from '@/web/lib/utils';

interface PublicLayoutProps {
  children: ReactNode;
  /** Signed-in visitors of public pages get a way back to their dashboard instead of a sign-in link. */
  signedIn?: boolean;
  mainClassName?: string;
  /** Replaces the default header link (sign-in, or back to the dashboard). */
  headerAction?: ReactNode;
}

/** Header, main and footer of the pages seen without signing in (landing, auth, portals, calculator). */
export function PublicLayout({ children, signedIn = false, mainClassName, headerAction }: PublicLayoutProps) {
  return (
    <div className="flex min-h-dvh flex-col bg-background">
      <header className="border-b bg-card/80 backdrop-blur print:hidden">
        <div className="mx-auto flex h-14 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
          <Link
            href="/"
            className="rounded-md focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            aria-label="DeviceFin home"
            data-testid="link-brand"
          >
            <Brand />
          </Link>
          <div className="flex items-center gap-1">
            <ThemeToggle />
            {headerAction ?? (
              <Button asChild variant="outline" size="sm">
                {signedIn ? (
                  <Link href="/" data-testid="link-dashboard">
                    <span className="hidden sm:inline">Back to dashboard</span>
                    <span className="sm:hidden">Dashboard</span>
                  </Link>
                ) : (
                  <Link href="/login" data-testid="link-sign-in">
                    Staff sign-in
                  </Link>
                )}
              </Button>
            )}
          </div>
        </div>
      </header>
      <main
        id="main"
        className={cn(
          'mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6 sm:py-12 print:max-w-none print:p-0',
          mainClassName,
        )}
      >
        {children}
      </main>
      <footer className="border-t print:hidden">
        <div className="mx-auto flex max-w-6xl flex-col gap-2 px-4 py-6 text-muted-foreground text-xs sm:flex-row sm:items-center sm:justify-between sm:px-6">
          <p>© {new Date().getFullYear()} DeviceFin · Device financing and collections management</p>
          <nav aria-label="Public pages" className="flex flex-wrap gap-x-4 gap-y-1">
            <Link href="/calculator" className="hover:text-foreground hover:underline">
              Calculator
            </Link>
            <Link href="/demo" className="hover:text-foreground hover:underline">
              Financing demo
            </Link>
            <Link href="/customer" className="hover:text-foreground hover:underline">
              Customer portal
            </Link>
            <Link href="/investor" className="hover:text-foreground hover:underline">
              Investor portal
            </Link>
          </nav>
        </div>
      </footer>
    </div>
  );
}
