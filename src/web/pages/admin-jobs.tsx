import { useLocation, useSearch } from 'wouter';
import { can } from '@/contracts/roles';
import { AREAS } from '@/web/app/areas';
import { PageHeader } from '@/web/components/page-header';
import { JobRuns } from '@/web/features/jobs/job-runs';
import { useAuth } from '@/web/hooks/use-auth';

const AREA = AREAS['/admin/jobs'];

/** /admin/jobs: background jobs and their recent runs and failures (administrators). */
export default function AdminJobsPage() {
  const { user } = useAuth();
  const [location, navigate] = useLocation();
  const failures = new URLSearchParams(useSearch()).get('show') === 'failures';
  if (!user) return null;
  return (
    <div className="flex min-w-0 flex-col gap-2">
      <PageHeader title={AREA.title} icon={AREA.icon} description={AREA.summary} />
      {can(user, 'admin.jobs') ? (
        <JobRuns
          failures={failures}
          onFailuresChange={(next) =>
            navigate(next ? `${location}?show=failures` : location, { replace: true })
          }
        />
      ) : (
        <p className="text-muted-foreground text-sm" data-testid="text-admin-required">
          Only administrators and the owner can see background jobs.
        </p>
      )}
    </div>
  );
}
