import { ArrowLeft } from 'lucide-react';
import { Link } from 'wouter';
import { AREAS } from '@/web/app/areas';
import { PageHeader } from '@/web/components/page-header';
import { RequirePermission } from '@/web/components/require-permission';
import { Button } from '@/web/components/ui/button';
import { ContractWizard } from '@/web/features/contracts/contract-wizard';
import { useAuth } from '@/web/hooks/use-auth';

const AREA = AREAS['/contracts'];

/** /contracts/new: the wizard from customer to a draft (optionally submitted for approval). */
export default function ContractNewPage() {
  const { user } = useAuth();
  if (!user) return null;
  return (
    <div className="flex w-full min-w-0 max-w-5xl flex-col">
      <PageHeader
        title="New contract"
        icon={AREA.icon}
        description="Customer, device and plan; the finance engine computes the schedule before anything is saved."
        actions={
          <Button asChild variant="ghost" size="sm">
            <Link href="/contracts" data-testid="link-back-contracts">
              <ArrowLeft aria-hidden="true" />
              Contracts
            </Link>
          </Button>
        }
      />
      <RequirePermission
        permission="contracts.draft"
        heading="You cannot draft contracts"
        reason="Drafting contracts needs the agent role or higher. Ask an administrator to change your role."
      >
        <ContractWizard />
      </RequirePermission>
    </div>
  );
}
