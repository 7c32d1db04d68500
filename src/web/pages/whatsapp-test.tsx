import { AREAS } from '@/web/app/areas';
import { AreaLayout } from '@/web/components/area-layout';
import { WhatsappTestPanel } from '@/web/features/whatsapp-test/whatsapp-test-panel';

const AREA = AREAS['/whatsapp-test'];

/** /whatsapp-test (issue 15 §6): a simulated inbound WhatsApp message through the real, signed webhook. */
export default function WhatsappTestPage() {
  return (
    <AreaLayout
      area={AREA}
      refusal={{
        heading: 'The WhatsApp test sends messages',
        reason: 'Ask a manager for the collector role or above.',
      }}
    >
      <WhatsappTestPanel />
    </AreaLayout>
  );
}
