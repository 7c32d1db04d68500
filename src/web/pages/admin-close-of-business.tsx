import { AREAS } from '@/web/app/areas';
import { PageHeader } from '@/web/components/page-header';
import { RequirePermission } from '@/web/components/require-permission';
import { EodRuns } from '@/web/features/close-of-business/eod-runs';

const AREA = AREAS['/admin/close-of-business'];

/** /admin/close-of-business: the end of each business day, its runs and steps (managers and admins). */
export default function AdminCloseOfBusinessPage() {
  return (
    <div className="flex min-w-0 flex-col gap-2">
      <PageHeader title={AREA.title} icon={AREA.icon} description={AREA.summary} />
      <RequirePermission
        permission={AREA.permission}
        heading="Managers and administrators close business days"
        reason="Ask a manager or an administrator to run the close of business."
      >
        <EodRuns />
      </RequirePermission>
    </div>
  );
}
