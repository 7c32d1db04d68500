import { AREAS } from '@/web/app/areas';
import AreaPage from './area-page';

/** /admin/demo-editor (issue 16): replaced by its page as it is built. */
export default function DemoEditorPage() {
  return <AreaPage area={AREAS['/admin/demo-editor']} />;
}
