import { AREAS } from '@/web/app/areas';
import { PageHeader } from '@/web/components/page-header';
import { RequirePermission } from '@/web/components/require-permission';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { CodesTable } from '@/web/features/investor/codes-table';
import { IssueCodeForm } from '@/web/features/investor/issue-code-form';

const AREA = AREAS['/admin/investor-codes'];

/** /admin/investor-codes (issue 16 §2): issue, list and revoke the investor portal's codes (administrators). */
export default function AdminInvestorCodesPage() {
  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeader title={AREA.title} icon={AREA.icon} description={AREA.summary} />
      {/* The codes' endpoints ask for admin.users: the administrators' permission. */}
      <RequirePermission
        permission="admin.users"
        heading="Administrator access required"
        reason="Only administrators and the owner issue and revoke investor codes."
        testId="card-admin-required"
      >
        <Card>
          <CardHeader>
            <CardTitle>Issue a code</CardTitle>
            <CardDescription>
              The investor signs in at /investor with it and sees aggregate figures only — never a customer.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <IssueCodeForm />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Codes</CardTitle>
          </CardHeader>
          <CardContent className="p-0">
            <CodesTable />
          </CardContent>
        </Card>
      </RequirePermission>
    </div>
  );
}
