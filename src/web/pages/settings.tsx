import { isAdmin } from '@/contracts/roles';
import { AREAS } from '@/web/app/areas';
import { PageHeader } from '@/web/components/page-header';
import { BusinessDateCard } from '@/web/features/settings/business-date-card';
import { OrganisationCard } from '@/web/features/settings/organisation-card';
import { PreferencesCard } from '@/web/features/settings/preferences-card';
import { useAuth } from '@/web/hooks/use-auth';

const AREA = AREAS['/settings'];

/**
 * /settings: the user's preferences and, for administrators and the owner, the business date and
 * the organisation's settings.
 */
export default function SettingsPage() {
  const { user } = useAuth();
  if (!user) return null;
  return (
    <div className="flex w-full min-w-0 max-w-4xl flex-col">
      <PageHeader title={AREA.title} icon={AREA.icon} description={AREA.summary} />
      <div className="grid grid-cols-1 gap-6">
        <PreferencesCard />
        {isAdmin(user) && <BusinessDateCard />}
        {isAdmin(user) && <OrganisationCard />}
      </div>
    </div>
  );
}
