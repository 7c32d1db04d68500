import { ArrowLeft, Pencil } from 'lucide-react';
import { useMemo } from 'react';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import { can } from '@/contracts/roles';
import { AREAS } from '@/web/app/areas';
import { PageHeader } from '@/web/components/page-header';
import { Button } from '@/web/components/ui/button';
import { SendMessageButton } from '@/web/features/communications/send-message-dialog';
import { KycBadge, RiskGrade } from '@/web/features/customers/badges';
import { CustomerForm } from '@/web/features/customers/customer-form';
import { DocumentsCard } from '@/web/features/customers/documents-card';
import { DetailSkeleton, Notice } from '@/web/features/customers/page-states';
import { ProfileCard } from '@/web/features/customers/profile-card';
import { useCustomer, useOrganisation } from '@/web/features/customers/queries';
import { RiskCard } from '@/web/features/customers/risk-card';
import { ContractsCard, KycCard } from '@/web/features/customers/side-cards';
import { TimelineCard } from '@/web/features/customers/timeline-card';
import { useAuth } from '@/web/hooks/use-auth';
import { toast } from '@/web/hooks/use-toast';
import { apiError, errorMessage } from '@/web/lib/queryClient';

const AREA = AREAS['/customers'];

function BackLink() {
  return (
    <Button variant="outline" asChild>
      <Link href="/customers" data-testid="link-back-customers">
        <ArrowLeft aria-hidden="true" />
        Customers
      </Link>
    </Button>
  );
}

/** /customers/:id: the profile, KYC documents and their review, scorecard, contracts and history. */
export default function CustomerDetailPage() {
  const { id = '' } = useParams<{ id: string }>();
  const { user } = useAuth();
  const [location, navigate] = useLocation();
  const editing = new URLSearchParams(useSearch()).get('edit') === '1';
  const customer = useCustomer(id);
  const organisation = useOrganisation();
  const country = organisation.data?.country;
  const currency = customer.data?.currency;
  const context = useMemo(() => (country && currency ? { country, currency } : null), [country, currency]);

  if (customer.isLoading) return <DetailSkeleton />;

  if (!customer.data) {
    const status = apiError(customer.error)?.status;
    return <NotFound missing={status === 404 || status === 400} message={errorMessage(customer.error)} />;
  }

  const data = customer.data;
  const mayEdit = can(user, 'customers.write');
  const closeEdit = () => navigate(location, { replace: true });

  return (
    <div className="flex min-w-0 flex-col">
      <PageHeader
        title={data.fullName}
        icon={AREA.icon}
        documentTitle={`${data.fullName} · Customers`}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <span className="font-mono" data-testid="text-account-number">
              {data.accountNumber}
            </span>
            <KycBadge status={data.kyc.status} testId="badge-kyc-status" />
            {data.risk && (
              <RiskGrade grade={data.risk.grade} score={data.risk.score} testId="badge-risk-grade" />
            )}
          </span>
        }
        actions={
          <>
            <BackLink />
            <SendMessageButton customerId={data.id} customerName={data.fullName} />
            {mayEdit && !editing && (
              <Button asChild>
                <Link href={`${location}?edit=1`} data-testid="button-edit-customer">
                  <Pencil aria-hidden="true" />
                  Edit
                </Link>
              </Button>
            )}
          </>
        }
      />
      {editing && mayEdit && user ? (
        context ? (
          <div className="w-full max-w-4xl">
            <CustomerForm
              key={data.id}
              customer={data}
              context={context}
              user={user}
              onSaved={(saved) => {
                toast({
                  title: 'Customer saved',
                  description: `${saved.fullName} (${saved.accountNumber}) is up to date.`,
                });
                closeEdit();
              }}
              onCancel={closeEdit}
            />
          </div>
        ) : organisation.error ? (
          <Notice title="The form could not be prepared" testId="card-organisation-error" tone="error">
            The organisation's country could not be loaded: {errorMessage(organisation.error)}
          </Notice>
        ) : (
          <DetailSkeleton />
        )
      ) : (
        <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
          <div className="grid min-w-0 grid-cols-1 content-start gap-6">
            <ProfileCard customer={data} />
            <DocumentsCard customer={data} user={user} />
            <TimelineCard customerId={data.id} />
          </div>
          <div className="grid min-w-0 grid-cols-1 content-start gap-6">
            <KycCard customer={data} />
            <RiskCard customer={data} />
            <ContractsCard customer={data} user={user} />
          </div>
        </div>
      )}
    </div>
  );
}

function NotFound({ missing, message }: { missing: boolean; message: string }) {
  return (
    <div className="flex w-full max-w-2xl flex-col">
      <PageHeader title={missing ? 'Customer not found' : 'Customer'} icon={AREA.icon} />
      <Notice
        title={missing ? 'There is no customer at this address' : 'The customer could not be loaded'}
        tone={missing ? 'info' : 'error'}
        testId="card-customer-not-found"
        action={
          <div>
            <BackLink />
          </div>
        }
      >
        {missing
          ? 'The link may be mistyped, or the customer was never created. Search for them in the list.'
          : message}
      </Notice>
    </div>
  );
}
