import { ScrollText, Settings2, Smartphone } from 'lucide-react';
import { can } from '@/contracts/roles';
import { AREAS } from '@/web/app/areas';
import { AreaLayout } from '@/web/components/area-layout';
import { type RoutedTab, RoutedTabs } from '@/web/components/routed-tabs';
import { CommandLog } from '@/web/features/device-control/command-log';
import { Fleet } from '@/web/features/device-control/fleet';
import { ProviderSettings } from '@/web/features/device-control/provider-settings';
import { useAuth } from '@/web/hooks/use-auth';

const AREA = AREAS['/device-control'];

/** /device-control: the fleet by lock state with bulk actions, the command log (?tab=log), provider settings (?tab=settings). */
export default function DeviceControlPage() {
  const { user } = useAuth();
  const tabs: [RoutedTab, ...RoutedTab[]] = [
    { value: 'fleet', label: 'Fleet', icon: Smartphone, content: <Fleet /> },
    { value: 'log', label: 'Command log', icon: ScrollText, content: <CommandLog /> },
  ];
  if (can(user, 'admin.integrations'))
    tabs.push({
      value: 'settings',
      label: 'Provider settings',
      icon: Settings2,
      content: <ProviderSettings />,
    });
  return (
    <AreaLayout
      area={AREA}
      className="gap-2"
      refusal={{
        heading: 'Collectors and above see device control',
        reason: 'Ask a manager for access to the fleet and its commands.',
      }}
    >
      <RoutedTabs label="Device control" tabs={tabs} />
    </AreaLayout>
  );
}
