import { UserPlus } from 'lucide-react';
import { Link } from 'wouter';
import { can } from '@/contracts/roles';
import { AREAS } from '@/web/app/areas';
import { PageHeader } from '@/web/components/page-header';
import { Button } from '@/web/components/ui/button';
import { CustomersList } from '@/web/features/customers/customers-list';
import { useAuth } from '@/web/hooks/use-auth';

const AREA = AREAS['/customers'];

/** /customers: every customer with search, filters, sort, pages and CSV export. */
export default function CustomersPage() {
  const { user } = useAuth();
  return (
    <div className="flex min-w-0 flex-col">
      <PageHeader
        title={AREA.title}
        icon={AREA.icon}
        description={AREA.summary}
        actions={
          can(user, 'customers.write') ? (
            <Button asChild>
              <Link href="/customers/new" data-testid="button-new-customer">
                <UserPlus aria-hidden="true" />
                New customer
              </Link>
            </Button>
          ) : undefined
        }
      />
      <CustomersList />
    </div>
  );
}
