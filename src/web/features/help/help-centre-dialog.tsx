import { useEffect, useState } from 'react';
import { Badge } from '@/web/components/ui/badge';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/web/components/ui/dialog';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/web/components/ui/tabs';
import { FeaturesPanel } from './features-panel';
import { useHelpData, useTutorialActions } from './help-data';
import { checkNewFeatures } from './help-rules';
import { type HelpTab, helpCentre, useHelpCentre } from './help-store';
import { QuickHelp } from './quick-help';
import { TutorialCatalogue } from './tutorial-catalogue';

/**
 * Seed "Help Center dialog": opened by the store's flag; max width 4xl and 90% of the viewport
 * height; Tutorials, Features (badge counting new features) and Quick Help. Its data is fetched
 * only while it is open.
 */
export default function HelpCentreDialog() {
  const { open, tab } = useHelpCentre();
  const { tutorials, progress, features } = useHelpData(open);
  const { start } = useTutorialActions();
  // Seed "Local store": new features and a new day since the last check set this flag.
  const [freshFeatures, setFreshFeatures] = useState(false);

  useEffect(() => {
    if (features.data && checkNewFeatures(features.data)) setFreshFeatures(true);
  }, [features.data]);

  const newCount = (features.data ?? []).filter((feature) => feature.isNew).length;
  const selectTab = (value: string) => {
    helpCentre.setTab(value as HelpTab);
    if (value === 'features') setFreshFeatures(false);
  };

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? helpCentre.open() : helpCentre.close())}>
      <DialogContent
        className="flex h-[90vh] max-w-4xl flex-col gap-0 overflow-hidden p-0"
        data-testid="dialog-help-centre"
      >
        <DialogHeader className="border-b px-6 pt-6 pb-4">
          <DialogTitle>Help Center</DialogTitle>
          <DialogDescription>Tutorials on the real screens, what’s new, and quick help.</DialogDescription>
        </DialogHeader>
        <Tabs value={tab} onValueChange={selectTab} className="flex min-h-0 flex-1 flex-col">
          <div className="px-6 pt-4">
            <TabsList aria-label="Help sections" className="w-full sm:w-fit">
              <TabsTrigger value="tutorials" className="flex-1" data-testid="tab-help-tutorials">
                Tutorials
              </TabsTrigger>
              <TabsTrigger value="features" className="flex-1" data-testid="tab-help-features">
                Features
                {newCount > 0 && (
                  <Badge variant="default" className="h-5 px-1.5" data-testid="badge-new-features">
                    {newCount}
                    <span className="sr-only"> new</span>
                  </Badge>
                )}
                {freshFeatures && (
                  <span
                    className="size-2 rounded-full bg-destructive"
                    data-testid="dot-fresh-features"
                    title="New since your last visit"
                  >
                    <span className="sr-only">New since your last visit</span>
                  </span>
                )}
              </TabsTrigger>
              <TabsTrigger value="quick-help" className="flex-1" data-testid="tab-help-quick">
                Quick Help
              </TabsTrigger>
            </TabsList>
          </div>
          <TabsContent value="tutorials" className="min-h-0 flex-1 overflow-y-auto px-6 pt-0 pb-6">
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
            />
          </TabsContent>
          <TabsContent value="features" className="min-h-0 flex-1 overflow-y-auto px-6 pt-0 pb-6">
            <FeaturesPanel
              features={features.data}
              tutorials={tutorials.data}
              loading={features.isLoading}
              error={features.error}
              onRetry={() => void features.refetch()}
              onLearnMore={start}
            />
          </TabsContent>
          <TabsContent value="quick-help" className="min-h-0 flex-1 overflow-y-auto px-6 pt-0 pb-6">
            <QuickHelp onNavigate={helpCentre.close} />
          </TabsContent>
        </Tabs>
      </DialogContent>
    </Dialog>
  );
}
