import { FileText, Filter, Inbox, Megaphone, Settings2 } from 'lucide-react';
import { can } from '@/contracts/roles';
import { AREAS } from '@/web/app/areas';
import { AreaLayout } from '@/web/components/area-layout';
import { type RoutedTab, RoutedTabs } from '@/web/components/routed-tabs';
import { BulkTab, OutboxTab, SegmentsTab, TemplatesTab } from '@/web/features/communications';
import { ProvidersTab } from '@/web/features/communications/providers-tab';
import { useAuth } from '@/web/hooks/use-auth';

const AREA = AREAS['/communications'];

/**
 * /communications (PRODUCT.md §3, issue 15): templates with their languages and versions, bulk
 * sends to segments, the segments, and the outbox. Consent and quiet hours are the sender's.
 */
export default function CommunicationsPage() {
  const { user } = useAuth();
  const tabs: [RoutedTab, ...RoutedTab[]] = [
    { value: 'templates', label: 'Templates', icon: FileText, content: <TemplatesTab /> },
    { value: 'send', label: 'Send', icon: Megaphone, content: <BulkTab /> },
    { value: 'segments', label: 'Segments', icon: Filter, content: <SegmentsTab /> },
    { value: 'outbox', label: 'Outbox', icon: Inbox, content: <OutboxTab /> },
  ];
  // The providers' settings and credentials: administrators only (admin.integrations).
  if (can(user, 'admin.integrations'))
    tabs.push({ value: 'providers', label: 'Providers', icon: Settings2, content: <ProvidersTab /> });
  return (
    <AreaLayout
      area={AREA}
      className="gap-2"
      refusal={{
        heading: 'Staff who read messages use communications',
        reason: 'Ask an administrator for a role that reads customer messages.',
      }}
    >
      <RoutedTabs label="Communications" tabs={tabs} />
    </AreaLayout>
  );
}
