import { AREAS } from '@/web/app/areas';
import AreaPage from './area-page';

/** /demo (issue 16): replaced by its page as it is built. */
export default function DemoPage() {
  return <AreaPage area={AREAS['/demo']} />;
}
