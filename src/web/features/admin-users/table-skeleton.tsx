import { Skeleton } from '@/web/components/ui/skeleton';

export function TableSkeleton({ rows = 4, label }: { rows?: number; label: string }) {
  return (
    <div role="status" className="grid grid-cols-1 gap-3 p-4" data-testid="table-loading">
      <span className="sr-only">{label}</span>
      {Array.from({ length: rows }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity
        <Skeleton key={i} className="h-9 w-full" />
      ))}
    </div>
  );
}
