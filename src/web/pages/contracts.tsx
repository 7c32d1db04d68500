import { Plus } from 'lucide-react';
import { Link, useSearch } from 'wouter';
import { can } from '@/contracts/roles';
import { AREAS } from '@/web/app/areas';
import { PageHeader } from '@/web/components/page-header';
import { Button } from '@/web/components/ui/button';
import { ContractsList } from '@/web/features/contracts/contracts-list';
import { useAuth } from '@/web/hooks/use-auth';

const AREA = AREAS['/contracts'];

/** /contracts: every contract, from draft to closure, with search, filters and export. */
export default function ContractsPage() {
  const { user } = useAuth();
  // A list narrowed to one customer (from the customer's page) starts new contracts for them.
  const customerId = new URLSearchParams(useSearch()).get('customerId');
  return (
    <div className="flex min-w-0 flex-col">
      <PageHeader
        title={AREA.title}
        icon={AREA.icon}
        description={AREA.summary}
        actions={
          can(user, 'contracts.draft') ? (
            <Button asChild>
              <Link
                href={
                  customerId
                    ? `/contracts/new?customerId=${encodeURIComponent(customerId)}`
                    : '/contracts/new'
                }
                data-testid="button-new-contract"
              >
                <Plus aria-hidden="true" />
                New contract
              </Link>
            </Button>
          ) : undefined
        }
      />
      <ContractsList />
    </div>
  );
}
