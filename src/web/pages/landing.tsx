import {
  Calculator,
  ChartLine,
  FileText,
  Landmark,
  Lock,
  type LucideIcon,
  Presentation,
  UserRound,
  Wallet,
} from 'lucide-react';
import { Link } from 'wouter';
import { authEndpoints } from '@/contracts/auth';
import { PublicLayout } from '@/web/components/public-layout';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { LoginForm } from '@/web/features/auth/login-form';
import { useDocumentTitle } from '@/web/hooks/use-document-title';

const CAPABILITIES: Array<{ icon: LucideIcon; title: string; text: string }> = [
  {
    icon: FileText,
    title: 'Contracts and schedules',
    text: 'Deposit, daily to monthly instalments, fees and APR disclosure from one calculation engine, with a second approver for every contract.',
  },
  {
    icon: Wallet,
    title: 'Payments and allocation',
    text: 'Mobile-money and cash payments matched to contracts and allocated automatically; anything unmatched waits in a suspense queue.',
  },
  {
    icon: Lock,
    title: 'Collections and device control',
    text: 'A prioritised arrears queue, promises to pay and reminders, with remote lock or activation codes for devices that are not paid for.',
  },
  {
    icon: ChartLine,
    title: 'Risk, finance and reporting',
    text: 'Portfolio at risk, roll rates and vintages, a double-entry ledger and investor reports, all from the same records.',
  },
];

const PUBLIC_LINKS: Array<{ href: string; icon: LucideIcon; title: string; text: string; testId: string }> = [
  {
    href: '/calculator',
    icon: Calculator,
    title: 'Device calculator',
    text: 'See the instalment and total cost of financing a device.',
    testId: 'link-calculator',
  },
  {
    href: '/demo',
    icon: Presentation,
    title: 'Financing demo',
    text: 'Walk through financing a device, from choosing it to the unlock code.',
    testId: 'link-demo',
  },
  {
    href: '/customer',
    icon: UserRound,
    title: 'Customer portal',
    text: 'Check your balance, next payment and unlock code.',
    testId: 'link-customer',
  },
  {
    href: '/investor',
    icon: Landmark,
    title: 'Investor portal',
    text: 'Portfolio performance for funders, with an investor code.',
    testId: 'link-investor',
  },
];

/** `/` and `/login` for signed-out visitors: what the product does, and the staff sign-in. */
export default function LandingPage() {
  useDocumentTitle('Sign in');
  return (
    <PublicLayout
      headerAction={
        <Button asChild variant="ghost" size="sm">
          <Link href="/admin-login" data-testid="link-admin-login-header">
            Administrator sign-in
          </Link>
        </Button>
      }
    >
      <div className="grid grid-cols-1 items-start gap-x-16 gap-y-10 lg:grid-cols-[1fr_26rem]">
        <section aria-labelledby="landing-title" className="lg:col-start-1 lg:row-start-1 lg:pt-6">
          <p className="font-semibold text-primary text-sm uppercase tracking-wider">
            Device financing and collections
          </p>
          <h1
            id="landing-title"
            className="mt-3 text-balance font-semibold text-3xl tracking-tight sm:text-4xl"
            data-testid="text-page-title"
          >
            Run your pay-as-you-go device portfolio from one place
          </h1>
          <p className="mt-4 max-w-2xl text-muted-foreground sm:text-lg">
            DeviceFin is the back office for lenders who sell phones, solar home systems, TVs and laptops on
            credit: onboard customers, set up contracts, take payments, chase arrears, lock unpaid devices and
            report to investors.
          </p>
        </section>

        <Card className="shadow-md lg:col-start-2 lg:row-span-2 lg:row-start-1" data-testid="card-sign-in">
          <CardHeader>
            <CardTitle className="text-lg">Staff sign-in</CardTitle>
            <CardDescription>Sign in with your work e-mail address.</CardDescription>
          </CardHeader>
          <CardContent className="grid grid-cols-1 gap-5">
            <LoginForm endpoint={authEndpoints.login} />
            <div className="grid grid-cols-1 gap-2 border-t pt-4 text-sm">
              <p className="text-muted-foreground">
                Administrator?{' '}
                <Link
                  href="/admin-login"
                  className="font-medium text-primary hover:underline"
                  data-testid="link-admin-login"
                >
                  Use the administrator sign-in
                </Link>
              </p>
              <p className="text-muted-foreground">
                New staff member?{' '}
                <Link
                  href="/register"
                  className="font-medium text-primary hover:underline"
                  data-testid="link-register"
                >
                  Create your account
                </Link>
              </p>
            </div>
          </CardContent>
        </Card>

        <ul
          className="grid grid-cols-1 gap-5 sm:grid-cols-2 lg:col-start-1 lg:row-start-2"
          aria-label="What DeviceFin does"
        >
          {CAPABILITIES.map(({ icon: Icon, title, text }) => (
            <li key={title} className="flex gap-3">
              <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
                <Icon className="size-5" aria-hidden="true" />
              </span>
              <div>
                <h2 className="font-medium text-sm">{title}</h2>
                <p className="mt-1 text-muted-foreground text-sm">{text}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>

      <section aria-labelledby="public-links-title" className="mt-14">
        <h2 id="public-links-title" className="font-semibold text-lg">
          For customers, investors and prospects
        </h2>
        <ul className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {PUBLIC_LINKS.map(({ href, icon: Icon, title, text, testId }) => (
            <li key={href}>
              <Link
                href={href}
                data-testid={testId}
                className="group flex h-full gap-3 rounded-xl border bg-card p-4 shadow-sm transition-colors hover:border-primary/50 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              >
                <Icon className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
                <span>
                  <span className="block font-medium text-sm group-hover:underline">{title}</span>
                  <span className="mt-1 block text-muted-foreground text-sm">{text}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </PublicLayout>
  );
}
