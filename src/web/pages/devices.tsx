import { Boxes, Smartphone } from 'lucide-react';
import { AREAS } from '@/web/app/areas';
import { AreaLayout } from '@/web/components/area-layout';
import { RoutedTabs } from '@/web/components/routed-tabs';
import { ModelsList } from '@/web/features/devices/models-list';
import { UnitsList } from '@/web/features/devices/units-list';

const AREA = AREAS['/devices'];

/** /devices: the units in the inventory and the catalogue of models (?tab=models). */
export default function DevicesPage() {
  return (
    <AreaLayout area={AREA} className="gap-2">
      <RoutedTabs
        label="Units and models"
        tabs={[
          { value: 'units', label: 'Units', icon: Smartphone, content: <UnitsList /> },
          { value: 'models', label: 'Models', icon: Boxes, content: <ModelsList /> },
        ]}
      />
    </AreaLayout>
  );
}
