import { AREAS } from '@/web/app/areas';
import { AreaLayout } from '@/web/components/area-layout';
import { RoutedTabs } from '@/web/components/routed-tabs';
import { BalanceCards } from '@/web/features/finance/balance-cards';
import { ChartOfAccounts } from '@/web/features/finance/chart-of-accounts';
import { JournalView } from '@/web/features/finance/journal';
import { TrialBalanceView } from '@/web/features/finance/trial-balance';

const AREA = AREAS['/finance'];
const REFUSAL = {
  heading: 'Finance access required',
  reason:
    'The ledger and the trial balance are for finance staff, managers and administrators. Ask an administrator if your work needs them.',
};

/** /finance: key balances at a date, the journal, the trial balance and the chart of accounts (read-only; finance staff). */
export default function FinancePage() {
  return (
    <AreaLayout area={AREA} refusal={REFUSAL} className="gap-4">
      <BalanceCards />
      <RoutedTabs
        label="Ledger views"
        tabs={[
          { value: 'journal', label: 'Journal', content: <JournalView /> },
          { value: 'trial-balance', label: 'Trial balance', content: <TrialBalanceView /> },
          { value: 'accounts', label: 'Chart of accounts', content: <ChartOfAccounts /> },
        ]}
      />
    </AreaLayout>
  );
}
