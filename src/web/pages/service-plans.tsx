import { AREAS } from '@/web/app/areas';
import { PageHeader } from '@/web/components/page-header';
import { PlansList } from '@/web/features/plans/plans-list';

const AREA = AREAS['/service-plans'];

/** /service-plans: the financing plans, their versions and terms. */
export default function ServicePlansPage() {
  return (
    <div className="flex min-w-0 flex-col gap-2">
      <PageHeader title={AREA.title} icon={AREA.icon} description={AREA.summary} />
      <PlansList />
    </div>
  );
}
