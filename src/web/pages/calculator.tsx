import { useQuery } from '@tanstack/react-query';
import { Calculator as CalculatorIcon, RotateCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { settingsEndpoints } from '@/contracts/settings';
import { PageHeader } from '@/web/components/page-header';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent } from '@/web/components/ui/card';
import { Skeleton } from '@/web/components/ui/skeleton';
import { Calculator } from '@/web/features/calculator/calculator';
import { api } from '@/web/lib/api';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';

/** /calculator, for everyone: the organisation's currency first, then the calculator. */
export default function CalculatorPage() {
  const organisation = useQuery({
    queryKey: queryKeys.settings.publicOrganisation(),
    queryFn: () => api(settingsEndpoints.publicOrganisation),
  });

  // api() has checked the answer against the contract: its currency is a string.
  if (organisation.data) return <Calculator organisation={organisation.data} />;

  let body: ReactNode;
  if (organisation.isLoading) {
    body = (
      <div
        role="status"
        className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,25rem)]"
        data-testid="calculator-loading"
      >
        <span className="sr-only">Loading the calculator…</span>
        <Skeleton className="h-[32rem] w-full rounded-xl" />
        <Skeleton className="h-80 w-full rounded-xl" />
      </div>
    );
  } else {
    const message = organisation.error
      ? `The calculator could not load the organisation's currency: ${errorMessage(organisation.error)}`
      : "The organisation's currency is not available.";
    body = (
      <Card>
        <CardContent className="flex flex-col items-start gap-4 p-6">
          <p role="alert" className="text-sm" data-testid="text-calculator-error">
            {message}
          </p>
          <Button variant="outline" onClick={() => void organisation.refetch()} data-testid="button-retry">
            <RotateCw aria-hidden="true" />
            Try again
          </Button>
        </CardContent>
      </Card>
    );
  }
  return (
    <div>
      <PageHeader title="Device calculator" icon={CalculatorIcon} />
      {body}
    </div>
  );
}
