import { ArrowLeft } from 'lucide-react';
import { useMemo } from 'react';
import { Link, useLocation } from 'wouter';
import { can } from '@/contracts/roles';
import { AREAS } from '@/web/app/areas';
import { PageHeader } from '@/web/components/page-header';
import { Button } from '@/web/components/ui/button';
import { CustomerForm } from '@/web/features/customers/customer-form';
import { FormSkeleton, Notice } from '@/web/features/customers/page-states';
import { useOrganisation } from '@/web/features/customers/queries';
import { useAuth } from '@/web/hooks/use-auth';
import { toast } from '@/web/hooks/use-toast';
import { errorMessage } from '@/web/lib/queryClient';

const AREA = AREAS['/customers'];

/** /customers/new: onboard a customer; the profile opens once saved, ready for the KYC documents. */
export default function CustomerNewPage() {
  const { user } = useAuth();
  const [, navigate] = useLocation();
  const organisation = useOrganisation();
  const country = organisation.data?.country;
  const currency = organisation.data?.currency;
  const context = useMemo(() => (country && currency ? { country, currency } : null), [country, currency]);

  const back = (
    <Button variant="outline" asChild>
      <Link href="/customers" data-testid="link-back-customers">
        <ArrowLeft aria-hidden="true" />
        Customers
      </Link>
    </Button>
  );

  let body: React.ReactNode;
  if (!user) body = null;
  else if (!can(user, 'customers.write')) {
    body = (
      <Notice title="You cannot add customers" testId="card-customers-write-required">
        Adding and editing customers needs the Agent role or above. Ask an administrator if you need it.
      </Notice>
    );
  } else if (context) {
    body = (
      <CustomerForm
        context={context}
        user={user}
        onSaved={(customer) => {
          toast({
            title: 'Customer created',
            description: `${customer.fullName} is ${customer.accountNumber}. Upload their KYC documents next.`,
          });
          navigate(`/customers/${customer.id}`);
        }}
        onCancel={() => navigate('/customers')}
      />
    );
  } else if (organisation.error) {
    body = (
      <Notice title="The form could not be prepared" testId="card-organisation-error" tone="error">
        The organisation's country and currency could not be loaded: {errorMessage(organisation.error)}
      </Notice>
    );
  } else {
    body = <FormSkeleton />;
  }

  return (
    <div className="flex w-full min-w-0 max-w-4xl flex-col">
      <PageHeader
        title="New customer"
        icon={AREA.icon}
        description="Their details, contact consents and who follows them up. KYC documents come next, on the profile."
        actions={back}
      />
      {body}
    </div>
  );
}
