import { Link } from 'wouter';
import { isAdmin } from '@/contracts/roles';
import { AREA_PATHS, AREAS, type AreaGroup, type AreaPath } from '@/web/app/areas';
import { displayName, roleDescription } from '@/web/app/nav-rules';
import { PageHeader } from '@/web/components/page-header';
import { Badge } from '@/web/components/ui/badge';
import { KpiCards } from '@/web/features/dashboard/kpi-cards';
import { MyTasksCard } from '@/web/features/tasks/my-tasks-card';
import { useAuth } from '@/web/hooks/use-auth';

const SECTIONS: Array<{ group: AreaGroup; title: string; adminOnly?: boolean }> = [
  { group: 'lending', title: 'Lending' },
  { group: 'servicing', title: 'Servicing' },
  { group: 'engagement', title: 'Customers and messages' },
  { group: 'oversight', title: 'Oversight' },
  { group: 'admin', title: 'Administration', adminOnly: true },
];

const EXCLUDED: ReadonlySet<AreaPath> = new Set<AreaPath>(['/', '/crm/contacts/:id']);

function pathsOf(group: AreaGroup): AreaPath[] {
  return AREA_PATHS.filter((path) => AREAS[path].group === group && !EXCLUDED.has(path));
}

const today = new Intl.DateTimeFormat(undefined, {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});

export default function DashboardPage() {
  const { user } = useAuth();
  if (!user) return null;
  const sections = SECTIONS.filter((section) => !section.adminOnly || isAdmin(user));
  return (
    <div className="grid grid-cols-1 gap-8">
      <PageHeader
        title={`Welcome, ${user.firstName || displayName(user)}`}
        documentTitle="Dashboard"
        className="mb-0"
        description={
          <span className="flex flex-wrap items-center gap-2">
            <Badge variant="secondary" data-testid="badge-user-role">
              {roleDescription(user)}
            </Badge>
            <span>{today.format(new Date())}</span>
          </span>
        }
      />

      <KpiCards />

      <MyTasksCard />

      {sections.map(({ group, title }) => (
        <section key={group} aria-labelledby={`section-${group}`} data-testid={`section-${group}`}>
          <h2
            id={`section-${group}`}
            className="mb-3 font-semibold text-muted-foreground text-sm uppercase tracking-wide"
          >
            {title}
          </h2>
          <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
            {pathsOf(group).map((path) => {
              const { title: areaTitle, summary, icon: Icon } = AREAS[path];
              return (
                <li key={path}>
                  <Link
                    href={path}
                    data-testid={`quick-link-${path.slice(1).replace(/\//g, '-')}`}
                    className="group flex h-full items-start gap-3 rounded-xl border bg-card p-4 shadow-sm transition-colors hover:border-primary/50 hover:bg-accent/40 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                  >
                    <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-muted text-primary">
                      <Icon className="size-5" aria-hidden="true" />
                    </span>
                    <span className="min-w-0">
                      <span className="block font-medium text-sm group-hover:underline">{areaTitle}</span>
                      <span className="mt-0.5 block text-muted-foreground text-xs leading-relaxed">
                        {summary}
                      </span>
                    </span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </section>
      ))}
    </div>
  );
}
