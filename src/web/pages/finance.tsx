import { useLocation, useSearch } from 'wouter';
import { AREAS } from '@/web/app/areas';
import { PageHeader } from '@/web/components/page-header';
import { RequirePermission } from '@/web/components/require-permission';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/web/components/ui/tabs';
import { ChartOfAccounts } from '@/web/features/finance/chart-of-accounts';
import { JournalView } from '@/web/features/finance/journal';
import { TrialBalanceView } from '@/web/features/finance/trial-balance';
import { useAuth } from '@/web/hooks/use-auth';

const AREA = AREAS['/finance'];
const TABS = ['journal', 'trial-balance', 'accounts'] as const;
type Tab = (typeof TABS)[number];

/** /finance: the journal, the trial balance and the chart of accounts (read-only; finance staff). */
export default function FinancePage() {
  const { user } = useAuth();
  const [location, navigate] = useLocation();
  const requested = new URLSearchParams(useSearch()).get('tab');
  const tab: Tab = TABS.find((candidate) => candidate === requested) ?? 'journal';
  if (!user) return null;

  return (
    <RequirePermission
      permission={AREA.permission}
      page={AREA}
      heading="Finance access required"
      reason="The ledger and the trial balance are for finance staff, managers and administrators. Ask an administrator if your work needs them."
    >
      <div className="flex min-w-0 flex-col gap-2">
        <PageHeader title={AREA.title} icon={AREA.icon} description={AREA.summary} />
        <Tabs
          value={tab}
          onValueChange={(next) =>
            navigate(next === 'journal' ? location : `${location}?tab=${next}`, { replace: true })
          }
        >
          <TabsList aria-label="Ledger views" className="max-w-full overflow-x-auto">
            <TabsTrigger value="journal" data-testid="tab-journal">
              Journal
            </TabsTrigger>
            <TabsTrigger value="trial-balance" data-testid="tab-trial-balance">
              Trial balance
            </TabsTrigger>
            <TabsTrigger value="accounts" data-testid="tab-accounts">
              Chart of accounts
            </TabsTrigger>
          </TabsList>
          <TabsContent value="journal">
            <JournalView />
          </TabsContent>
          <TabsContent value="trial-balance">
            <TrialBalanceView />
          </TabsContent>
          <TabsContent value="accounts">
            <ChartOfAccounts />
          </TabsContent>
        </Tabs>
      </div>
    </RequirePermission>
  );
}
