import { AREAS } from '@/web/app/areas';
import { AreaLayout } from '@/web/components/area-layout';
import { RoutedTabs } from '@/web/components/routed-tabs';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { InviteForm } from '@/web/features/admin-users/invite-form';
import { InvitesTable } from '@/web/features/admin-users/invites-table';
import { UsersTable } from '@/web/features/admin-users/users-table';
import { useAuth } from '@/web/hooks/use-auth';

const AREA = AREAS['/admin/users'];
const REFUSAL = {
  heading: 'Administrator access required',
  reason:
    'Only administrators and the owner can manage staff accounts and invitations. Ask an administrator if you need a change to your account.',
  testId: 'card-admin-required',
};

/** /admin/users: staff accounts and roles, and invitations (?tab=invites: the palette, tutorials). */
export default function AdminUsersPage() {
  return (
    <AreaLayout area={AREA} refusal={REFUSAL} className="gap-2">
      <RoutedTabs
        label="Users and invites"
        tabs={[
          { value: 'users', label: 'Users', content: <UsersTab /> },
          {
            value: 'invites',
            label: 'Invites',
            content: <InvitesTab />,
            className: 'grid grid-cols-1 gap-4',
          },
        ]}
      />
    </AreaLayout>
  );
}

function UsersTab() {
  const { user } = useAuth();
  if (!user) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Staff users</CardTitle>
        <CardDescription>
          Roles are cumulative: each role can do everything the roles before it can. The owner and your own
          account cannot be changed here.
        </CardDescription>
      </CardHeader>
      <CardContent className="p-0 pb-2">
        <UsersTable me={user} />
      </CardContent>
    </Card>
  );
}

function InvitesTab() {
  return (
    <>
      <Card>
        <CardHeader>
          <CardTitle>Invite a colleague</CardTitle>
          <CardDescription>
            An invite is a one-time registration link with a role. It is valid for 7 days.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <InviteForm />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Invites</CardTitle>
        </CardHeader>
        <CardContent className="p-0 pb-2">
          <InvitesTable />
        </CardContent>
      </Card>
    </>
  );
}
