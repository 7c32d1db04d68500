import { CircleDollarSign, FileUp, Hourglass, ListOrdered, Undo2 } from 'lucide-react';
import { useSearch } from 'wouter';
import { can } from '@/contracts/roles';
import { AREAS } from '@/web/app/areas';
import { AreaLayout } from '@/web/components/area-layout';
import { type RoutedTab, RoutedTabs } from '@/web/components/routed-tabs';
import { CorrectionsList } from '@/web/features/payments/corrections-list';
import { ImportPanel } from '@/web/features/payments/import-panel';
import { PaymentsList } from '@/web/features/payments/payments-list';
import { PostPaymentForm } from '@/web/features/payments/post-payment-form';
import { SuspenseList } from '@/web/features/payments/suspense-list';
import { useAuth } from '@/web/hooks/use-auth';

const AREA = AREAS['/payment-processing'];

/**
 * /payment-processing: post a payment (agents: cash; finance: every method), the payments with
 * their receipts, the reversals and transfers waiting for a second person, the suspense queue
 * (matched or refunded by finance), and statement imports (finance).
 * `?contract=<id>` opens the post form on that contract (the contract page's "Record payment").
 */
export default function PaymentProcessingPage() {
  const { user } = useAuth();
  const contract = new URLSearchParams(useSearch()).get('contract') ?? '';
  const payments: RoutedTab = {
    value: 'payments',
    label: 'Payments',
    icon: ListOrdered,
    content: <PaymentsList />,
  };
  const reversals: RoutedTab = {
    value: 'reversals',
    label: 'Reversals',
    icon: Undo2,
    content: <CorrectionsList />,
  };
  const suspense: RoutedTab = {
    value: 'suspense',
    label: 'Suspense',
    icon: Hourglass,
    content: <SuspenseList />,
  };
  const statementImport: RoutedTab[] = can(user, 'payments.manage')
    ? [{ value: 'import', label: 'Import', icon: FileUp, content: <ImportPanel /> }]
    : [];
  const tabs: readonly [RoutedTab, ...RoutedTab[]] = can(user, 'payments.cash')
    ? [
        {
          value: 'post',
          label: 'Post payment',
          icon: CircleDollarSign,
          content: <PostPaymentForm key={contract} initialContractId={contract} />,
        },
        payments,
        reversals,
        suspense,
        ...statementImport,
      ]
    : [payments, reversals, suspense, ...statementImport];
  return (
    <AreaLayout area={AREA} className="gap-2">
      <RoutedTabs label="Payment processing" tabs={tabs} />
    </AreaLayout>
  );
}
