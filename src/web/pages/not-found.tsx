import { Compass } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '@/web/components/ui/button';
import { useDocumentTitle } from '@/web/hooks/use-document-title';

export default function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <div className="mx-auto flex max-w-md flex-col items-center py-16 text-center">
      <span className="flex size-12 items-center justify-center rounded-full bg-muted text-muted-foreground">
        <Compass className="size-6" aria-hidden="true" />
      </span>
      <p className="mt-4 font-semibold text-muted-foreground text-sm">404</p>
      <h1 className="mt-1 font-semibold text-2xl tracking-tight" data-testid="text-page-title">
        Page not found
      </h1>
      <p className="mt-2 text-muted-foreground text-sm">
        There is no page at this address. It may have moved, or the link may be mistyped.
      </p>
      <Button asChild className="mt-6">
        <Link href="/" data-testid="link-home">
          Go to the home page
        </Link>
      </Button>
    </div>
  );
}
