import { ChevronDown, LifeBuoy } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { AREAS } from '@/web/app/areas';
import { PageHeader } from '@/web/components/page-header';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/web/components/ui/card';
import { helpCentre } from '@/web/features/help/help-store';
import { QuickHelp } from '@/web/features/help/quick-help';

const AREA = AREAS['/help'];

const linkClass = 'font-medium text-primary underline-offset-4 hover:underline';

/** Answers to the questions staff ask first, about what exists today. */
const FAQ: Array<{ id: string; question: string; answer: ReactNode }> = [
  {
    id: 'invite',
    question: 'How does a colleague get an account?',
    answer: (
      <>
        An administrator creates an invite under{' '}
        <Link href="/admin/users?tab=invites" className={linkClass}>
          Users → Invites
        </Link>{' '}
        with the colleague’s role, and sends them the one-time link. The link works once and expires after 7
        days.
      </>
    ),
  },
  {
    id: 'lost-phone',
    question: 'I lost the phone with my authenticator app. How do I sign in?',
    answer: (
      <>
        Type one of your recovery codes (like <code>abcde-fghij</code>) where the 6-digit code is asked. Each
        code works once. Then, in your{' '}
        <Link href="/profile" className={linkClass}>
          profile
        </Link>
        , turn two-factor sign-in off and set it up again on the new phone. Without a recovery code, ask an
        administrator.
      </>
    ),
  },
  {
    id: 'signed-out',
    question: 'Why was I signed out?',
    answer:
      'Changing your password, or choosing “Sign out other sessions”, signs out every other browser. An administrator deactivating an account signs it out everywhere. Sessions also end after a long time without use.',
  },
  {
    id: 'landing',
    question: 'Can I start on another page than the dashboard, or use the dark theme?',
    answer: (
      <>
        Yes: choose the page after signing in and the theme in{' '}
        <Link href="/settings" className={linkClass}>
          Settings
        </Link>
        . Both follow you to every browser you use.
      </>
    ),
  },
  {
    id: 'audit',
    question: 'Who can see what I changed?',
    answer:
      'Every change and sign-in is written to the audit trail with the time, the person and the address it came from. Administrators can read it and check that nobody has altered it.',
  },
  {
    id: 'being-built',
    question: 'Why do some pages say “This area is being built”?',
    answer:
      'DeviceFin is delivered area by area. Those pages describe what the area will do; they show no sample data, so nothing you see there is invented.',
  },
];

/** /help: quick start, shortcuts, common questions, and the way into the help centre. */
export default function HelpPage() {
  return (
    <div className="flex w-full min-w-0 max-w-5xl flex-col">
      <PageHeader
        title={AREA.title}
        icon={AREA.icon}
        description={AREA.summary}
        actions={
          <Button onClick={() => helpCentre.open('tutorials')} data-testid="button-open-help-centre">
            <LifeBuoy aria-hidden="true" />
            Open help centre
          </Button>
        }
      />
      <div className="grid grid-cols-1 gap-6">
        <Card>
          <CardContent className="p-6">
            <QuickHelp headingLevel="h2" />
          </CardContent>
        </Card>
        <Card data-testid="section-faq">
          <CardHeader>
            <CardTitle>Common questions</CardTitle>
          </CardHeader>
          <CardContent className="grid grid-cols-1 gap-2">
            {FAQ.map(({ id, question, answer }) => (
              <details
                key={id}
                className="group rounded-lg border px-4 py-3 open:bg-muted/30"
                data-testid={`faq-${id}`}
              >
                <summary className="flex cursor-pointer list-none items-center justify-between gap-3 font-medium text-sm [&::-webkit-details-marker]:hidden">
                  {question}
                  <ChevronDown
                    className="size-4 shrink-0 text-muted-foreground transition-transform group-open:rotate-180"
                    aria-hidden="true"
                  />
                </summary>
                <div className="mt-2 text-muted-foreground text-sm leading-relaxed">{answer}</div>
              </details>
            ))}
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
