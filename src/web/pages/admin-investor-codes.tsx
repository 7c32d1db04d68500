import { AREAS } from '@/web/app/areas';
import AreaPage from './area-page';

/** /admin/investor-codes (issue 16): replaced by its page as it is built. */
export default function InvestorCodesPage() {
  return <AreaPage area={AREAS['/admin/investor-codes']} />;
}
