import { AREAS } from '@/web/app/areas';
import { AreaLayout } from '@/web/components/area-layout';
import { AutoDebitMonitor } from '@/web/features/auto-debit/auto-debit-monitor';

const AREA = AREAS['/admin/auto-debit'];
const REFUSAL = {
  heading: 'Finance access required',
  reason: 'The auto-debit monitor is for finance staff, managers and administrators.',
};

/** /admin/auto-debit: mandates, attempts, failures and retries (finance). */
export default function AdminAutoDebitPage() {
  return (
    <AreaLayout area={AREA} refusal={REFUSAL} className="gap-2">
      <AutoDebitMonitor />
    </AreaLayout>
  );
}
