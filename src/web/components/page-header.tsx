import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { useDocumentTitle } from '@/web/hooks/use-document-title';
import { cn } from '@/web/lib/utils';

interface PageHeaderProps {
  title: string;
  description?: ReactNode;
  icon?: LucideIcon;
  actions?: ReactNode;
  /** Browser tab title when it differs from the heading. */
  documentTitle?: string;
  className?: string;
}

/** The page's single h1 with its icon, description and actions. */
export function PageHeader({
  title,
  description,
  icon: Icon,
  actions,
  documentTitle,
  className,
}: PageHeaderProps) {
  useDocumentTitle(documentTitle ?? title);
  return (
    <div className={cn('mb-6 flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between', className)}>
      <div className="flex items-start gap-3">
        {Icon && (
          <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
            <Icon className="size-5" aria-hidden="true" />
          </span>
        )}
        <div className="min-w-0">
          <h1 className="font-semibold text-2xl tracking-tight" data-testid="text-page-title">
            {title}
          </h1>
          {description && <div className="mt-1 text-muted-foreground text-sm">{description}</div>}
        </div>
      </div>
      {actions && <div className="flex shrink-0 items-center gap-2">{actions}</div>}
    </div>
  );
}
