import { DEMO_EDITOR_PERMISSION } from '@/contracts/demo';
import { AREAS } from '@/web/app/areas';
import { PageHeader } from '@/web/components/page-header';
import { RequirePermission } from '@/web/components/require-permission';
import { DemoEditor } from '@/web/features/demo/editor/demo-editor';

const AREA = AREAS['/admin/demo-editor'];

/** /admin/demo-editor: the public demo's content as a draft, its preview, publication and history. */
export default function DemoEditorPage() {
  return (
    <RequirePermission
      permission={DEMO_EDITOR_PERMISSION}
      page={AREA}
      heading="Administrator access required"
      reason="Only administrators and the owner can change the public financing demo."
      testId="card-admin-required"
    >
      <div className="flex min-w-0 flex-col">
        <PageHeader title={AREA.title} icon={AREA.icon} description={AREA.summary} />
        <DemoEditor />
      </div>
    </RequirePermission>
  );
}
