import { ShieldX } from 'lucide-react';
import { useLocation, useSearch } from 'wouter';
import { can } from '@/contracts/roles';
import { AREAS } from '@/web/app/areas';
import { PageHeader } from '@/web/components/page-header';
import { Card, CardContent } from '@/web/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/web/components/ui/tabs';
import { AuditLog } from '@/web/features/audit/audit-log';
import { UsageView } from '@/web/features/audit/usage-view';
import { useAuth } from '@/web/hooks/use-auth';

const AREA = AREAS['/admin/audit'];
const TABS = ['log', 'usage'] as const;
type Tab = (typeof TABS)[number];

/** /admin/audit: the audit log with its chain check, and usage of the app (administrators). */
export default function AdminAuditPage() {
  const { user } = useAuth();
  const [location, navigate] = useLocation();
  const requested = new URLSearchParams(useSearch()).get('tab');
  const tab: Tab = TABS.find((candidate) => candidate === requested) ?? 'log';
  if (!user) return null;

  if (!can(user, 'admin.audit')) {
    return (
      <div className="w-full max-w-2xl">
        <PageHeader title={AREA.title} icon={AREA.icon} />
        <Card data-testid="card-admin-required">
          <CardContent className="flex items-start gap-3 p-6">
            <ShieldX className="mt-0.5 size-5 shrink-0 text-destructive" aria-hidden="true" />
            <div>
              <h2 className="font-semibold" data-testid="text-admin-required">
                Administrator access required
              </h2>
              <p className="mt-1 text-muted-foreground text-sm">
                Only administrators and the owner can read the audit trail and the usage figures.
              </p>
            </div>
          </CardContent>
        </Card>
      </div>
    );
  }

  return (
    <div className="flex min-w-0 flex-col gap-2">
      <PageHeader title={AREA.title} icon={AREA.icon} description={AREA.summary} />
      <Tabs value={tab} onValueChange={(next) => navigate(`${location}?tab=${next}`, { replace: true })}>
        <TabsList aria-label="Audit trail and usage">
          <TabsTrigger value="log" data-testid="tab-audit-log">
            Audit log
          </TabsTrigger>
          <TabsTrigger value="usage" data-testid="tab-usage">
            Usage
          </TabsTrigger>
        </TabsList>
        <TabsContent value="log">
          <AuditLog />
        </TabsContent>
        <TabsContent value="usage">
          <UsageView />
        </TabsContent>
      </Tabs>
    </div>
  );
}
