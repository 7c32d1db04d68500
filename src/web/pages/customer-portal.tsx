import { AREAS } from '@/web/app/areas';
import AreaPage from './area-page';

/** /customer (issue 16): replaced by its page as it is built. */
export default function CustomerPortalPage() {
  return <AreaPage area={AREAS['/customer']} />;
}
