import { InvestorPortal } from '@/web/features/investor/portal';

/** /investor (issue 16 §3): investors sign in with a code and see aggregate figures only. */
export default function InvestorPortalPage() {
  return <InvestorPortal />;
}
