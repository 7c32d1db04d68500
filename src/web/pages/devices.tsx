import { Boxes, Smartphone } from 'lucide-react';
import { useLocation, useSearch } from 'wouter';
import { AREAS } from '@/web/app/areas';
import { PageHeader } from '@/web/components/page-header';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/web/components/ui/tabs';
import { ModelsList } from '@/web/features/devices/models-list';
import { UnitsList } from '@/web/features/devices/units-list';

const AREA = AREAS['/devices'];
const TABS = ['units', 'models'] as const;
type Tab = (typeof TABS)[number];

/** /devices: the units in the inventory and the catalogue of models (?tab=models). */
export default function DevicesPage() {
  const [location, navigate] = useLocation();
  const requested = new URLSearchParams(useSearch()).get('tab');
  const tab: Tab = TABS.find((candidate) => candidate === requested) ?? 'units';

  return (
    <div className="flex min-w-0 flex-col gap-2">
      <PageHeader title={AREA.title} icon={AREA.icon} description={AREA.summary} />
      <Tabs
        value={tab}
        onValueChange={(next) => navigate(next === 'units' ? location : `${location}?tab=${next}`)}
      >
        <TabsList aria-label="Units and models">
          <TabsTrigger value="units" data-testid="tab-units">
            <Smartphone aria-hidden="true" className="size-4" /> Units
          </TabsTrigger>
          <TabsTrigger value="models" data-testid="tab-models">
            <Boxes aria-hidden="true" className="size-4" /> Models
          </TabsTrigger>
        </TabsList>
        <TabsContent value="units">
          <UnitsList />
        </TabsContent>
        <TabsContent value="models">
          <ModelsList />
        </TabsContent>
      </Tabs>
    </div>
  );
}
