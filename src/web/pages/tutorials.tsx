import { AREAS } from '@/web/app/areas';
import { PageHeader } from '@/web/components/page-header';
import { useHelpData, useTutorialActions } from '@/web/features/help/help-data';
import { TutorialCatalogue } from '@/web/features/help/tutorial-catalogue';

const AREA = AREAS['/tutorials'];

/** /tutorials: every tutorial card, full page, with the same data and actions as the help centre. */
export default function TutorialsPage() {
  const { tutorials, progress } = useHelpData(true);
  const { start } = useTutorialActions();
  return (
    <div className="flex min-w-0 flex-col">
      <PageHeader title={AREA.title} icon={AREA.icon} description={AREA.description} />
      <TutorialCatalogue
        tutorials={tutorials.data}
        progress={progress.data}
        loading={tutorials.isLoading || progress.isLoading}
        error={tutorials.error ?? progress.error}
        onRetry={() => {
          void tutorials.refetch();
          void progress.refetch();
        }}
        onStart={start}
        headingLevel="h2"
        columns="three"
      />
    </div>
  );
}
