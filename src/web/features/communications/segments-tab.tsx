import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Filter, Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { communicationEndpoints, type Segment, type SegmentFilter } from '@/contracts/communications';
import { can } from '@/contracts/roles';
import { ConfirmDialog } from '@/web/components/confirm-dialog';
import { EmptyMessage } from '@/web/components/empty-message';
import { Spinner } from '@/web/components/loaders';
import { Button } from '@/web/components/ui/button';
import { Card } from '@/web/components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { useAuth } from '@/web/hooks/use-auth';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { invalidate } from '@/web/lib/mutation-effects';
import { errorMessage } from '@/web/lib/queryClient';
import { useSegments } from './queries';
import { SegmentDialog } from './segment-dialog';

/** A filter in words: "bucket 1-30; DPD 5–30; region Coast". */
export function describeFilter(f: SegmentFilter): string {
  const parts: string[] = [];
  if (f.buckets?.length) parts.push(`bucket ${f.buckets.join(', ')}`);
  if (f.dpdMin !== undefined || f.dpdMax !== undefined)
    parts.push(`DPD ${f.dpdMin ?? 0}–${f.dpdMax === undefined ? 'any' : f.dpdMax}`);
  if (f.regions?.length) parts.push(`region ${f.regions.join(', ')}`);
  if (f.planIds?.length) parts.push(`${f.planIds.length} plan${f.planIds.length === 1 ? '' : 's'}`);
  if (f.categories?.length) parts.push(f.categories.join(', ').replaceAll('_', ' '));
  if (f.deviceModelIds?.length)
    parts.push(`${f.deviceModelIds.length} model${f.deviceModelIds.length === 1 ? '' : 's'}`);
  if (f.agentIds?.length) parts.push(`${f.agentIds.length} agent${f.agentIds.length === 1 ? '' : 's'}`);
  if (f.tags?.length) parts.push(`tagged ${f.tags.join(' or ')}`);
  return parts.length ? parts.join('; ') : 'every customer';
}

/** The Segments tab: saved filters with the customers each holds now. */
export function SegmentsTab() {
  const { user } = useAuth();
  const segments = useSegments();
  const [editing, setEditing] = useState<Segment | 'new' | null>(null);
  const [removing, setRemoving] = useState<Segment | null>(null);
  const writes = can(user, 'messages.send');
  return (
    <div className="grid grid-cols-1 gap-4" data-testid="panel-segments">
      <div className="flex items-center justify-between gap-2">
        <p className="text-muted-foreground text-sm">
          Saved filters over customers and their contracts, for bulk sends.
        </p>
        {writes ? (
          <Button size="sm" onClick={() => setEditing('new')} data-testid="button-new-segment">
            <Plus aria-hidden="true" /> New segment
          </Button>
        ) : null}
      </div>
      {segments.isPending ? (
        <Spinner className="size-5" />
      ) : segments.isError ? (
        <p role="alert" className="text-destructive text-sm">
          Segments could not be loaded: {errorMessage(segments.error)}
        </p>
      ) : segments.data.items.length === 0 ? (
        <EmptyMessage icon={Filter} testId="text-no-segments">
          No segments yet. Save one to send to the same customers again.
        </EmptyMessage>
      ) : (
        <Card>
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>Filter</TableHead>
                <TableHead className="text-right">Customers</TableHead>
                <TableHead />
              </TableRow>
            </TableHeader>
            <TableBody>
              {segments.data.items.map((segment) => (
                <TableRow key={segment.id} data-testid={`row-segment-${segment.id}`}>
                  <TableCell className="font-medium">{segment.name}</TableCell>
                  <TableCell className="text-muted-foreground text-sm">
                    {describeFilter(segment.filter)}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">
                    {segment.customers.toLocaleString()}
                  </TableCell>
                  <TableCell className="text-right">
                    {writes ? (
                      <span className="flex justify-end gap-1">
                        <Button
                          variant="ghost"
                          size="sm"
                          onClick={() => setEditing(segment)}
                          aria-label={`Edit ${segment.name}`}
                        >
                          <Pencil aria-hidden="true" />
                        </Button>
                        <Button
                          variant="ghost"
                          size="sm"
                          onClick={() => setRemoving(segment)}
                          aria-label={`Delete ${segment.name}`}
                        >
                          <Trash2 aria-hidden="true" />
                        </Button>
                      </span>
                    ) : null}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Card>
      )}
      {editing ? (
        <SegmentDialog segment={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      ) : null}
      {removing ? <DeleteSegmentDialog segment={removing} onClose={() => setRemoving(null)} /> : null}
    </div>
  );
}

function DeleteSegmentDialog({ segment, onClose }: { segment: Segment; onClose: () => void }) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: () => api(communicationEndpoints.deleteSegment, { params: { id: segment.id } }),
    onSuccess: () => {
      void invalidate(queryClient, 'segmentsChanged');
      toast({ title: `Segment "${segment.name}" deleted` });
      onClose();
    },
  });
  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => !next && onClose()}
      title={`Delete the segment ${segment.name}?`}
      description={
        <>
          Bulk sends made from it keep their own copy of its filter.
          {mutation.error ? (
            <span role="alert" className="mt-2 block text-destructive">
              {errorMessage(mutation.error)}
            </span>
          ) : null}
        </>
      }
      confirmLabel="Delete"
      destructive
      pending={mutation.isPending}
      onConfirm={() => mutation.mutate()}
    />
  );
}
