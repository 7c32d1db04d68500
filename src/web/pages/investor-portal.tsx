import { AREAS } from '@/web/app/areas';
import AreaPage from './area-page';

/** /investor (issue 16): replaced by its page as it is built. */
export default function InvestorPortalPage() {
  return <AreaPage area={AREAS['/investor']} />;
}
