import { UserPlus } from 'lucide-react';
import { AREAS } from '@/web/app/areas';
import { AreaLayout } from '@/web/components/area-layout';
import { CustomersList } from '@/web/features/customers/customers-list';

const AREA = AREAS['/customers'];

/** /customers: every customer with search, filters, sort, pages and CSV export. */
export default function CustomersPage() {
  return (
    <AreaLayout
      area={AREA}
      create={{
        permission: 'customers.write',
        href: '/customers/new',
        icon: UserPlus,
        label: 'New customer',
        testId: 'button-new-customer',
      }}
    >
      <CustomersList />
    </AreaLayout>
  );
}
