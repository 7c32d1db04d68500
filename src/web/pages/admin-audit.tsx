import { AREAS } from '@/web/app/areas';
import { AreaLayout } from '@/web/components/area-layout';
import { RoutedTabs } from '@/web/components/routed-tabs';
import { AuditLog } from '@/web/features/audit/audit-log';
import { UsageView } from '@/web/features/audit/usage-view';

const AREA = AREAS['/admin/audit'];
const REFUSAL = {
  heading: 'Administrator access required',
  reason: 'Only administrators and the owner can read the audit trail and the usage figures.',
  testId: 'card-admin-required',
};

/** /admin/audit: the audit log with its chain check, and usage of the app (administrators). */
export default function AdminAuditPage() {
  return (
    <AreaLayout area={AREA} refusal={REFUSAL} className="gap-2">
      <RoutedTabs
        label="Audit trail and usage"
        tabs={[
          { value: 'log', label: 'Audit log', testId: 'tab-audit-log', content: <AuditLog /> },
          { value: 'usage', label: 'Usage', content: <UsageView /> },
        ]}
      />
    </AreaLayout>
  );
}
