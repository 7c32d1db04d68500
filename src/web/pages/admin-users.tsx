import { useLocation, useSearch } from 'wouter';
import { AREAS } from '@/web/app/areas';
import { PageHeader } from '@/web/components/page-header';
import { RequirePermission } from '@/web/components/require-permission';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/web/components/ui/tabs';
import { InviteForm } from '@/web/features/admin-users/invite-form';
import { InvitesTable } from '@/web/features/admin-users/invites-table';
import { UsersTable } from '@/web/features/admin-users/users-table';
import { useAuth } from '@/web/hooks/use-auth';

const AREA = AREAS['/admin/users'];

export default function AdminUsersPage() {
  const { user } = useAuth();
  // ?tab=invites opens the invites tab (the command palette's "New invite", tutorials).
  const [location, navigate] = useLocation();
  const tab = new URLSearchParams(useSearch()).get('tab') === 'invites' ? 'invites' : 'users';
  if (!user) return null;

  return (
    <RequirePermission
      permission={AREA.permission}
      page={AREA}
      heading="Administrator access required"
      reason="Only administrators and the owner can manage staff accounts and invitations. Ask an administrator if you need a change to your account."
      testId="card-admin-required"
    >
      <div className="flex min-w-0 flex-col gap-2">
        <PageHeader title={AREA.title} icon={AREA.icon} description={AREA.summary} />
        <Tabs value={tab} onValueChange={(next) => navigate(`${location}?tab=${next}`, { replace: true })}>
          <TabsList aria-label="Users and invites">
            <TabsTrigger value="users" data-testid="tab-users">
              Users
            </TabsTrigger>
            <TabsTrigger value="invites" data-testid="tab-invites">
              Invites
            </TabsTrigger>
          </TabsList>
          <TabsContent value="users">
            <Card>
              <CardHeader>
                <CardTitle>Staff users</CardTitle>
                <CardDescription>
                  Roles are cumulative: each role can do everything the roles before it can. The owner and
                  your own account cannot be changed here.
                </CardDescription>
              </CardHeader>
              <CardContent className="p-0 pb-2">
                <UsersTable me={user} />
              </CardContent>
            </Card>
          </TabsContent>
          <TabsContent value="invites" className="grid grid-cols-1 gap-4">
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
          </TabsContent>
        </Tabs>
      </div>
    </RequirePermission>
  );
}
