import { Eye, Presentation, RotateCw } from 'lucide-react';
import { Link, useSearch } from 'wouter';
import { DEMO_EDITOR_PERMISSION } from '@/contracts/demo';
import { can } from '@/contracts/roles';
import { AREAS } from '@/web/app/areas';
import { PageHeader } from '@/web/components/page-header';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent } from '@/web/components/ui/card';
import { Skeleton } from '@/web/components/ui/skeleton';
import { DemoWalkthrough } from '@/web/features/demo/demo-walkthrough';
import { demoImageUrl, useCurrency, useDemoContent } from '@/web/features/demo/use-demo';
import { useAuth } from '@/web/hooks/use-auth';
import { errorMessage } from '@/web/lib/queryClient';

const AREA = AREAS['/demo'];

/**
 * /demo, for everyone: the guided financing walk-through with the published content. Demo
 * editors open `/demo?preview=draft` (the editor's "Preview" link) to walk through the draft.
 */
export default function DemoPage() {
  const { user, isLoading: userLoading } = useAuth();
  const wantsPreview = new URLSearchParams(useSearch()).get('preview') === 'draft';
  const preview = wantsPreview && can(user, DEMO_EDITOR_PERMISSION);
  // A preview waits for the session, so an editor does not see the live content flash first.
  const ready = !wantsPreview || !userLoading;
  const content = useDemoContent(preview);
  const currency = useCurrency();

  if (!ready || content.isPending || currency.isPending) {
    return (
      <div role="status" className="mx-auto grid w-full max-w-3xl gap-4">
        <PageHeader title={AREA.title} icon={Presentation} />
        <span className="sr-only">Loading the demo…</span>
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-72 w-full rounded-xl" />
      </div>
    );
  }
  if (content.isError || currency.isError) {
    return (
      <div className="mx-auto w-full max-w-3xl">
        <PageHeader title={AREA.title} icon={Presentation} />
        <Card>
          <CardContent className="flex flex-col items-start gap-4 p-6">
            <p role="alert" className="text-sm" data-testid="text-demo-error">
              The demo could not load: {errorMessage(content.error ?? currency.error)}
            </p>
            <Button
              variant="outline"
              onClick={() => {
                void content.refetch();
                void currency.refetch();
              }}
            >
              <RotateCw aria-hidden="true" />
              Try again
            </Button>
          </CardContent>
        </Card>
      </div>
    );
  }

  const { texts, heroImageId } = content.data.content;
  return (
    <div className="mx-auto w-full max-w-3xl">
      {wantsPreview && (
        <p
          className="mb-4 flex flex-wrap items-center gap-2 rounded-lg border border-primary/40 bg-primary/5 p-3 text-sm"
          data-testid="banner-demo-preview"
        >
          <Eye className="size-4 text-primary" aria-hidden="true" />
          {preview
            ? 'Preview of the draft: visitors still see the published demo.'
            : 'Only demo editors can preview the draft; this is the published demo.'}
          {preview && (
            <Link
              href="/admin/demo-editor"
              className="font-medium text-primary underline-offset-4 hover:underline"
            >
              Back to the editor
            </Link>
          )}
        </p>
      )}
      {heroImageId && (
        <img
          src={demoImageUrl(heroImageId)}
          alt=""
          className="mb-4 aspect-[3/1] w-full rounded-xl bg-muted object-cover"
          data-testid="img-demo-hero"
        />
      )}
      <PageHeader
        title={texts.title}
        documentTitle={AREA.title}
        icon={Presentation}
        description={texts.intro}
        className="mb-4"
      />
      <DemoWalkthrough
        // A new version (the editor published) starts the walk-through again.
        key={`${content.data.source}-${content.data.version ?? 0}`}
        content={content.data.content}
        currency={currency.data}
        preview={preview}
      />
    </div>
  );
}
