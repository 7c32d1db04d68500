import { History } from 'lucide-react';
import type { DemoVersionStatus, DemoVersionSummary } from '@/contracts/demo';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { formatDateTime } from '@/web/lib/format';

const BADGE: Record<DemoVersionStatus, { label: string; variant: 'default' | 'success' | 'secondary' }> = {
  draft: { label: 'Draft', variant: 'default' },
  published: { label: 'Live', variant: 'success' },
  archived: { label: 'Archived', variant: 'secondary' },
};

/** Every version, newest first, each but the draft with "Revert to this" (it becomes the draft). */
export function VersionsList({
  versions,
  onRevert,
  busy,
}: {
  versions: readonly DemoVersionSummary[];
  onRevert: (id: string, version: number) => void;
  busy: boolean;
}) {
  if (!versions.length) {
    return (
      <p className="text-muted-foreground text-sm" data-testid="text-no-versions">
        Nothing saved yet: the demo shows its built-in content until a version is published.
      </p>
    );
  }
  return (
    <ol className="grid grid-cols-1 gap-2" aria-label="Versions">
      {versions.map((version) => {
        const badge = BADGE[version.status];
        return (
          <li
            key={version.id}
            className="flex flex-wrap items-center justify-between gap-3 rounded-lg border p-3"
            data-testid={`row-version-${version.version}`}
          >
            <div className="grid min-w-0 gap-0.5">
              <p className="flex items-center gap-2 font-medium text-sm">
                Version {version.version}
                <Badge variant={badge.variant} data-testid={`status-version-${version.version}`}>
                  {badge.label}
                </Badge>
              </p>
              <p className="text-muted-foreground text-xs">
                {version.publishedAt
                  ? `Published ${formatDateTime(version.publishedAt)}${version.publishedBy ? ` by ${version.publishedBy}` : ''}`
                  : `Saved ${formatDateTime(version.updatedAt)}${version.createdBy ? ` by ${version.createdBy}` : ''}`}
                {` · ${version.devices} devices, ${version.plans} plans`}
              </p>
              {version.note && <p className="text-sm">{version.note}</p>}
            </div>
            {version.status !== 'draft' && (
              <Button
                type="button"
                variant="outline"
                size="sm"
                disabled={busy}
                onClick={() => onRevert(version.id, version.version)}
                data-testid={`button-revert-${version.version}`}
              >
                <History aria-hidden="true" />
                Revert to this
              </Button>
            )}
          </li>
        );
      })}
    </ol>
  );
}
