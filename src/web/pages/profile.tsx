import { AREAS } from '@/web/app/areas';
import { PageHeader } from '@/web/components/page-header';
import { PasswordCard } from '@/web/features/profile/password-form';
import { ProfileDetailsCard } from '@/web/features/profile/profile-form';
import { SessionsCard } from '@/web/features/profile/sessions-card';
import { TwoFactorCard } from '@/web/features/profile/two-factor-card';
import { useAuth } from '@/web/hooks/use-auth';

const AREA = AREAS['/profile'];

/** /profile: name and e-mail, password, two-factor sign-in and sessions. */
export default function ProfilePage() {
  const { user } = useAuth();
  if (!user) return null;
  return (
    <div className="flex min-w-0 flex-col">
      <PageHeader title={AREA.title} icon={AREA.icon} description={AREA.summary} />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-2">
        <ProfileDetailsCard key={user.id} user={user} />
        <PasswordCard email={user.email} />
        <div className="lg:col-span-2">
          <TwoFactorCard />
        </div>
        <div className="lg:col-span-2">
          <SessionsCard />
        </div>
      </div>
    </div>
  );
}
