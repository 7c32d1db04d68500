import type { LucideIcon } from 'lucide-react';
import { ArrowLeft, SearchX } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { DelayedSpinner } from '@/web/components/loaders';
import { PageHeader } from '@/web/components/page-header';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent } from '@/web/components/ui/card';
import { apiError, errorMessage } from '@/web/lib/queryClient';

/** The link above a detail page's header, back to its list. */
export function BackLink({ href, testId, children }: { href: string; testId: string; children: ReactNode }) {
  return (
    <Link
      href={href}
      className="mb-3 inline-flex items-center gap-1 text-muted-foreground text-sm hover:text-foreground"
      data-testid={testId}
    >
      <ArrowLeft className="size-4" aria-hidden="true" /> {children}
    </Link>
  );
}

interface DetailPageProps {
  /** The page's area: its icon heads the page, its title ends the browser tab's. */
  area: { title: string; icon: LucideIcon };
  /** The BackLink above the header. */
  back: ReactNode;
  title: string;
  /** The record's name in the browser tab, where it is not the title: "PHONE-12M v2". */
  tabTitle?: string;
  description?: ReactNode;
  actions?: ReactNode;
  testId: string;
  children: ReactNode;
}

/** A detail page's column: the way back and the header over the record's cards. */
export function DetailPage({
  area,
  back,
  title,
  tabTitle,
  description,
  actions,
  testId,
  children,
}: DetailPageProps) {
  return (
    <div className="flex min-w-0 flex-col gap-4" data-testid={testId}>
      <div>
        {back}
        <PageHeader
          className="mb-0"
          title={title}
          documentTitle={`${tabTitle ?? title} · ${area.title}`}
          icon={area.icon}
          description={description}
          actions={actions}
        />
      </div>
      {children}
    </div>
  );
}

/** What a detail page says when its record is not there, e.g. for a unit. */
export interface DetailTexts {
  /** The heading when there is no such record: "Unit not found". */
  notFoundTitle: string;
  /** "No unit has this address"; the card adds why that may be. */
  notFound: string;
  /** "The unit could not be loaded"; the card adds the error. */
  failed: string;
  /** The card's way out, to the list: "Back to the inventory". */
  list: { href: string; label: string };
}

interface DetailPageStatesProps {
  query: { isLoading: boolean; error: unknown };
  /** The page's area: its title heads a failure, its icon every state. */
  area: { title: string; icon: LucideIcon };
  /** The BackLink above the header. */
  back: ReactNode;
  texts: DetailTexts;
}

/**
 * A detail page (/devices/:id, /service-plans/:id) before it has its record: a spinner while it
 * loads, then a card saying there is no such record (404, or 400 for an id the server cannot
 * read) or why it could not be loaded, so every detail page fails the same way.
 */
export function DetailPageStates({ query, area, back, texts }: DetailPageStatesProps) {
  if (query.isLoading) return <DelayedSpinner />;
  const status = apiError(query.error)?.status;
  const missing = status === 404 || status === 400;
  return (
    <div className="w-full max-w-2xl">
      {back}
      <PageHeader title={missing ? texts.notFoundTitle : area.title} icon={area.icon} />
      <Card data-testid={missing ? 'card-not-found' : 'card-error'}>
        <CardContent className="flex items-start gap-3 p-6">
          <SearchX className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
          <div className="grid grid-cols-1 gap-3">
            <p className="text-sm" role={missing ? undefined : 'alert'}>
              {missing
                ? `${texts.notFound}. It may have been mistyped, or the link is old.`
                : `${texts.failed}: ${errorMessage(query.error)}`}
            </p>
            <Button asChild variant="outline" className="w-fit">
              <Link href={texts.list.href}>{texts.list.label}</Link>
            </Button>
          </div>
        </CardContent>
      </Card>
    </div>
  );
}
