import { useLocation, useSearch } from 'wouter';
import { AREAS } from '@/web/app/areas';
import { PageHeader } from '@/web/components/page-header';
import { RequirePermission } from '@/web/components/require-permission';
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

  return (
    <RequirePermission
      permission={AREA.permission}
      page={AREA}
      heading="Administrator access required"
      reason="Only administrators and the owner can read the audit trail and the usage figures."
      testId="card-admin-required"
    >
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
    </RequirePermission>
  );
}
