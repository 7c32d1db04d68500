import { Plus } from 'lucide-react';
import { useSearch } from 'wouter';
import { AREAS } from '@/web/app/areas';
import { AreaLayout } from '@/web/components/area-layout';
import { ContractsList } from '@/web/features/contracts/contracts-list';

const AREA = AREAS['/contracts'];

/** /contracts: every contract, from draft to closure, with search, filters and export. */
export default function ContractsPage() {
  // A list narrowed to one customer (from the customer's page) starts new contracts for them.
  const customerId = new URLSearchParams(useSearch()).get('customerId');
  const href = customerId ? `/contracts/new?customerId=${encodeURIComponent(customerId)}` : '/contracts/new';
  return (
    <AreaLayout
      area={AREA}
      create={{
        permission: 'contracts.draft',
        href,
        icon: Plus,
        label: 'New contract',
        testId: 'button-new-contract',
      }}
    >
      <ContractsList />
    </AreaLayout>
  );
}
