import type { LucideIcon } from 'lucide-react';
import { ShieldX } from 'lucide-react';
import type { ReactNode } from 'react';
import { can, type Permission } from '@/contracts/roles';
import { PageHeader } from '@/web/components/page-header';
import { Card, CardContent } from '@/web/components/ui/card';
import { useAuth } from '@/web/hooks/use-auth';

interface RequirePermissionProps {
  /** What the content needs (an area's declared `permission`, or an action's). */
  permission: Permission;
  /** The refusal's heading: "Finance access required". */
  heading: string;
  /** Who may, and what to do about it. */
  reason: ReactNode;
  /** For a whole page: its header (title and icon) over the refusal, in a narrow column. */
  page?: { title: string; icon: LucideIcon; above?: ReactNode };
  testId?: string;
  children: ReactNode;
}

/**
 * Shows its children to people whose role holds the permission, and to others a card saying
 * what they need. A courtesy only: the server refuses the same calls with 403 ROLE_FORBIDDEN.
 * Renders nothing until the session is known.
 */
export function RequirePermission({
  permission,
  heading,
  reason,
  page,
  testId = 'card-not-allowed',
  children,
}: RequirePermissionProps) {
  const { user } = useAuth();
  if (!user) return null;
  if (can(user, permission)) return <>{children}</>;
  const card = (
    <Card data-testid={testId}>
      <CardContent className="flex items-start gap-3 p-6">
        <ShieldX className="mt-0.5 size-5 shrink-0 text-destructive" aria-hidden="true" />
        <div>
          <h2 className="font-semibold" data-testid="text-not-allowed">
            {heading}
          </h2>
          <p className="mt-1 text-muted-foreground text-sm">{reason}</p>
        </div>
      </CardContent>
    </Card>
  );
  if (!page) return card;
  return (
    <div className="w-full max-w-2xl">
      {page.above}
      <PageHeader title={page.title} icon={page.icon} />
      {card}
    </div>
  );
}
