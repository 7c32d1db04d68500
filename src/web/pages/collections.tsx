import { PackageX, Scissors } from 'lucide-react';
import { AREAS } from '@/web/app/areas';
import { AreaLayout } from '@/web/components/area-layout';
import { RoutedTabs } from '@/web/components/routed-tabs';
import { RepossessionsTab, WriteOffsTab } from '@/web/features/recoveries';

const AREA = AREAS['/collections'];

/**
 * /collections. For now its Repossessions and Write-offs tabs (the recoveries area); the queue,
 * actions, promises and performance tabs join them here.
 */
export default function CollectionsPage() {
  return (
    <AreaLayout area={AREA} className="gap-2">
      <RoutedTabs
        label="Collections"
        listClassName="max-w-full overflow-x-auto"
        tabs={[
          { value: 'repossessions', label: 'Repossessions', icon: PackageX, content: <RepossessionsTab /> },
          { value: 'write-offs', label: 'Write-offs', icon: Scissors, content: <WriteOffsTab /> },
        ]}
      />
    </AreaLayout>
  );
}
