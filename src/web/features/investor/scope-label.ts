import type { InvestorScope } from '@/contracts/investor';

/** What a code shows, as staff and investors read it: "Fund “growth”" or "Whole portfolio". */
export const scopeLabel = (scope: InvestorScope) =>
  scope.kind === 'tag' ? `Fund “${scope.tag}”` : 'Whole portfolio';
