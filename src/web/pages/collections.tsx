import { CalendarCheck, ChartColumn, ListOrdered, PackageX, Scissors, UserCheck } from 'lucide-react';
import { can } from '@/contracts/roles';
import { AREAS } from '@/web/app/areas';
import { AreaLayout } from '@/web/components/area-layout';
import { type RoutedTab, RoutedTabs } from '@/web/components/routed-tabs';
import { PerformancePanel } from '@/web/features/collections/performance';
import { PromisesList } from '@/web/features/collections/promises-list';
import { QueueList, useQueueOptions } from '@/web/features/collections/queue-list';
import { RepossessionsTab, WriteOffsTab } from '@/web/features/recoveries';
import { useAuth } from '@/web/hooks/use-auth';

const AREA = AREAS['/collections'];

/**
 * /collections (PRODUCT.md §2 "Collections"): the queue ranked by priority score, my own queue,
 * promises to pay, repossessions and write-off requests (the recoveries area), and collector
 * performance for managers.
 */
export default function CollectionsPage() {
  const { user } = useAuth();
  const options = useQueueOptions(can(user, 'collections.work'));
  const tabs: [RoutedTab, ...RoutedTab[]] = [
    { value: 'queue', label: 'Queue', icon: ListOrdered, content: <QueueList key="queue" /> },
    { value: 'mine', label: 'My queue', icon: UserCheck, content: <QueueList key="mine" mine /> },
    { value: 'promises', label: 'Promises', icon: CalendarCheck, content: <PromisesList /> },
    { value: 'repossessions', label: 'Repossessions', icon: PackageX, content: <RepossessionsTab /> },
    { value: 'write-offs', label: 'Write-offs', icon: Scissors, content: <WriteOffsTab /> },
  ];
  if (can(user, 'collections.manage') && options.data)
    tabs.push({
      value: 'performance',
      label: 'Performance',
      icon: ChartColumn,
      content: <PerformancePanel businessDate={options.data.businessDate} />,
    });
  return (
    <AreaLayout
      area={AREA}
      className="gap-2"
      refusal={{
        heading: 'Collectors work the collections queue',
        reason: 'Ask a manager for the collector role to work cases.',
      }}
    >
      <RoutedTabs label="Collections" tabs={tabs} />
    </AreaLayout>
  );
}
