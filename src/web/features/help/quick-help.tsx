import { BookOpen, ChartColumn, ExternalLink, FileText, LifeBuoy, Users, Video, Wallet } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'wouter';
import { Button } from '@/web/components/ui/button';
import { SHORTCUTS } from '../shortcuts/shortcut-rules';

/** Seed "Quick Help": the four-step quick start, in order. */
export const QUICK_START = [
  {
    title: 'Add Customers',
    text: 'Create customer profiles with contact details, consents and KYC documents.',
    href: '/customers',
    icon: Users,
  },
  {
    title: 'Create Contracts',
    text: 'Finance a device: pick the customer, the device and a plan; the schedule is calculated for you.',
    href: '/contracts',
    icon: FileText,
  },
  {
    title: 'Record Payments',
    text: 'Post cash and mobile-money payments; each is allocated to the instalments automatically.',
    href: '/payment-processing',
    icon: Wallet,
  },
  {
    title: 'Monitor Performance',
    text: 'Follow collections, portfolio at risk and trends on the dashboard and in Analytics.',
    href: '/analytics',
    icon: ChartColumn,
  },
] as const;

type Note = 'video' | 'support' | null;

const NOTES: Record<Exclude<Note, null>, string> = {
  video:
    'No video tutorials are recorded yet. The interactive tutorials walk you through the real screens step by step instead.',
  support:
    'Support for DeviceFin is given by your organisation’s administrators: ask one of them about your account, roles or settings. If something does not work, tell them what you did and when, so they can find it in the audit trail and the server log.',
};

export function Kbd({ children }: { children: string }) {
  return (
    <kbd className="inline-flex h-6 min-w-6 items-center justify-center rounded border bg-muted px-1.5 font-medium font-mono text-foreground text-xs">
      {children}
    </kbd>
  );
}

/** Quick start, keyboard shortcuts and the three support buttons, each with an honest action. */
export function QuickHelp({
  headingLevel = 'h3',
  onNavigate,
}: {
  headingLevel?: 'h2' | 'h3';
  /** Called before following a quick-start link (the dialog closes itself). */
  onNavigate?: () => void;
}) {
  const [note, setNote] = useState<Note>(null);
  const id = useId();
  const Heading = headingLevel;
  const headingClass = 'mb-3 font-semibold text-muted-foreground text-xs uppercase tracking-wide';
  return (
    <div className="grid grid-cols-1 gap-8">
      <section aria-labelledby={`${id}-quick-start-title`} data-testid="section-quick-start">
        <Heading id={`${id}-quick-start-title`} className={headingClass}>
          Quick start
        </Heading>
        <ol className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          {QUICK_START.map(({ title, text, href, icon: Icon }, index) => (
            <li key={title}>
              <Link
                href={href}
                onClick={onNavigate}
                className="flex h-full gap-3 rounded-xl border bg-card p-4 transition-colors hover:border-primary/50 hover:bg-accent/40 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                data-testid={`link-quick-start-${index + 1}`}
              >
                <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-primary font-semibold text-primary-foreground text-sm">
                  {index + 1}
                </span>
                <span className="min-w-0">
                  <span className="flex items-center gap-1.5 font-medium text-sm">
                    <Icon className="size-4 text-primary" aria-hidden="true" />
                    {title}
                  </span>
                  <span className="mt-1 block text-muted-foreground text-sm">{text}</span>
                </span>
              </Link>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby={`${id}-shortcuts-title`} data-testid="section-shortcuts">
        <Heading id={`${id}-shortcuts-title`} className={headingClass}>
          Keyboard shortcuts
        </Heading>
        <dl className="grid grid-cols-1 gap-2 sm:grid-cols-2">
          {SHORTCUTS.map((shortcut) => (
            <div
              key={shortcut.id}
              className="flex items-center justify-between gap-3 rounded-lg border px-3 py-2"
              data-testid={`shortcut-${shortcut.id}`}
            >
              <dt className="text-sm">{shortcut.label}</dt>
              <dd className="flex items-center gap-1">
                {shortcut.keys.map((key, i) => (
                  <span key={key} className="flex items-center gap-1">
                    {i > 0 && (
                      <span className="text-muted-foreground text-xs" aria-hidden="true">
                        +
                      </span>
                    )}
                    <Kbd>{key}</Kbd>
                  </span>
                ))}
              </dd>
            </div>
          ))}
        </dl>
        <p className="mt-2 text-muted-foreground text-xs">
          On a Mac, ⌘ works as Ctrl. Inside a text field only Ctrl+K works; the others keep their usual
          meaning.
        </p>
      </section>

      <section aria-labelledby={`${id}-more-help-title`} data-testid="section-more-help">
        <Heading id={`${id}-more-help-title`} className={headingClass}>
          More help
        </Heading>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="outline"
            aria-expanded={note === 'video'}
            aria-controls={`${id}-quick-help-note`}
            onClick={() => setNote(note === 'video' ? null : 'video')}
            data-testid="button-video-tutorials"
          >
            <Video aria-hidden="true" />
            Video tutorials
          </Button>
          <Button asChild variant="outline">
            <a href="/api/docs" target="_blank" rel="noopener noreferrer" data-testid="link-documentation">
              <BookOpen aria-hidden="true" />
              API documentation
              <ExternalLink aria-hidden="true" />
              <span className="sr-only">(opens in a new tab)</span>
            </a>
          </Button>
          <Button
            variant="outline"
            aria-expanded={note === 'support'}
            aria-controls={`${id}-quick-help-note`}
            onClick={() => setNote(note === 'support' ? null : 'support')}
            data-testid="button-contact-support"
          >
            <LifeBuoy aria-hidden="true" />
            Contact support
          </Button>
        </div>
        <div id={`${id}-quick-help-note`} role="status" aria-live="polite">
          {note && (
            <p
              className="mt-3 rounded-lg border bg-muted/50 px-3 py-2.5 text-sm"
              data-testid={`text-help-note-${note}`}
            >
              {NOTES[note]}
            </p>
          )}
        </div>
      </section>
    </div>
  );
}
