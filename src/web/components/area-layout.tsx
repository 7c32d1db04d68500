import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { can, type Permission } from '@/contracts/roles';
import type { Area } from '@/web/app/areas';
import { PageHeader } from '@/web/components/page-header';
import { RequirePermission } from '@/web/components/require-permission';
import { Button } from '@/web/components/ui/button';
import { useAuth } from '@/web/hooks/use-auth';
import { cn } from '@/web/lib/utils';

/** The header's "New …" link, shown only to roles that may create. */
export interface CreateLink {
  permission: Permission;
  href: string;
  icon: LucideIcon;
  label: string;
  testId: string;
}

/** What people without the area's permission see instead of the page (RequirePermission). */
export interface Refusal {
  heading: string;
  reason: ReactNode;
  testId?: string;
}

/**
 * An area's page: the header from its entry in AREAS (title, icon, summary), with the "New …"
 * link for those allowed, over the page's content. With a refusal, the page is for roles holding
 * the area's permission, so a page does not restate its area's permission and header.
 */
export function AreaLayout({
  area,
  create,
  refusal,
  className,
  children,
}: {
  area: Area;
  create?: CreateLink;
  refusal?: Refusal;
  className?: string;
  children: ReactNode;
}) {
  const { user } = useAuth();
  const page = (
    <div className={cn('flex min-w-0 flex-col', className)}>
      <PageHeader
        title={area.title}
        icon={area.icon}
        description={area.summary}
        actions={create && can(user, create.permission) ? <CreateButton {...create} /> : undefined}
      />
      {children}
    </div>
  );
  if (!refusal || !area.permission) return page;
  return (
    <RequirePermission permission={area.permission} page={area} {...refusal}>
      {page}
    </RequirePermission>
  );
}

function CreateButton({ href, icon: Icon, label, testId }: CreateLink) {
  return (
    <Button asChild>
      <Link href={href} data-testid={testId}>
        <Icon aria-hidden="true" />
        {label}
      </Link>
    </Button>
  );
}
