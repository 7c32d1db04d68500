import { ArrowLeft, ShieldX } from 'lucide-react';
import { Link } from 'wouter';
import { can } from '@/contracts/roles';
import { AREAS } from '@/web/app/areas';
import { PageHeader } from '@/web/components/page-header';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent } from '@/web/components/ui/card';
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
      {can(user, 'contracts.draft') ? (
        <ContractWizard />
      ) : (
        <Card data-testid="card-not-allowed">
          <CardContent className="flex items-start gap-3 p-6">
            <ShieldX className="mt-0.5 size-5 shrink-0 text-destructive" aria-hidden="true" />
            <div>
              <h2 className="font-semibold">You cannot draft contracts</h2>
              <p className="mt-1 text-muted-foreground text-sm">
                Drafting contracts needs the agent role or higher. Ask an administrator to change your role.
              </p>
            </div>
          </CardContent>
        </Card>
      )}
    </div>
  );
}
