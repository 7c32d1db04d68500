import { Hammer } from 'lucide-react';
import type { Area } from '@/web/app/areas';
import { PageHeader } from '@/web/components/page-header';
import { Card, CardContent } from '@/web/components/ui/card';

/**
 * The one honest page for every area whose feature is not built yet: its name, what it will do,
 * and that it is being built. No sample data.
 */
export default function AreaPage({ area }: { area: Area }) {
  return (
    <div className="w-full max-w-3xl">
      <PageHeader title={area.title} icon={area.icon} description={area.summary} />
      <Card>
        <CardContent className="grid grid-cols-1 gap-4 p-6">
          <div className="flex items-center gap-2">
            <Hammer className="size-4 text-muted-foreground" aria-hidden="true" />
            <p className="font-medium text-sm" data-testid="text-area-status">
              This area is being built
            </p>
          </div>
          <div>
            <h2 className="font-medium text-muted-foreground text-xs uppercase tracking-wide">
              What it will do
            </h2>
            <p className="mt-2 text-sm leading-relaxed" data-testid="text-area-description">
              {area.description}
            </p>
          </div>
        </CardContent>
      </Card>
    </div>
  );
}
