import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Settings2 } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { type Collector, collectionEndpoints } from '@/contracts/collections';
import { addDays } from '@/domain';
import { ListStates } from '@/web/components/data-list';
import { DialogSubmitFooter } from '@/web/components/dialog-submit-footer';
import { FormAlert } from '@/web/components/form-alert';
import { FormField } from '@/web/components/form-field';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/web/components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/web/components/ui/dialog';
import { Input } from '@/web/components/ui/input';
import { Label } from '@/web/components/ui/label';
import {
  ON_WIDE,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/web/components/ui/table';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { formatPercent } from '@/web/lib/format';
import { money } from '@/web/lib/money';
import { invalidate } from '@/web/lib/mutation-effects';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage, fieldErrors } from '@/web/lib/queryClient';

const cureText = (cure: ReadonlyArray<{ bucket: string; cured: number; cases: number }>) =>
  cure.map((c) => `${c.bucket}: ${c.cured}/${c.cases}`).join(' · ');

/**
 * Collector performance for managers over a range of business dates: contacts, promises, kept
 * rate, amount collected and cure rate by bucket; below, each collector's regions and cap.
 */
export function PerformancePanel({ businessDate }: { businessDate: string }) {
  const id = useId();
  const [from, setFrom] = useState(addDays(businessDate, -29));
  const [to, setTo] = useState(businessDate);
  const valid = !!from && !!to && from <= to;
  const report = useQuery({
    queryKey: queryKeys.collections.performance({ from, to }),
    queryFn: () => api(collectionEndpoints.performance, { query: { from, to } }),
    enabled: valid,
  });
  const rows = report.data?.collectors ?? [];
  return (
    <div className="grid min-w-0 grid-cols-1 gap-4">
      <div className="flex flex-wrap items-end gap-3">
        <div className="grid gap-1">
          <Label htmlFor={`${id}-from`}>From</Label>
          <Input
            id={`${id}-from`}
            type="date"
            value={from}
            max={to}
            onChange={(e) => setFrom(e.target.value)}
            data-testid="input-performance-from"
          />
        </div>
        <div className="grid gap-1">
          <Label htmlFor={`${id}-to`}>To</Label>
          <Input
            id={`${id}-to`}
            type="date"
            value={to}
            min={from}
            onChange={(e) => setTo(e.target.value)}
            data-testid="input-performance-to"
          />
        </div>
        {!valid && (
          <p role="alert" className="text-destructive text-sm">
            Choose a range whose start is not after its end.
          </p>
        )}
      </div>
      <ListStates
        label="Collector performance"
        loading={report.isLoading}
        error={
          report.error ? `Collector performance could not be loaded: ${errorMessage(report.error)}` : null
        }
        empty={rows.length ? null : 'No collector logged an action or held a case in this range.'}
        testId="performance"
      >
        <Card className="overflow-x-auto p-0">
          <Table aria-label="Collector performance" data-testid="table-performance">
            <TableHeader>
              <TableRow>
                <TableHead>Collector</TableHead>
                <TableHead className={`text-right ${ON_WIDE}`}>Contacts</TableHead>
                <TableHead className={`text-right ${ON_WIDE}`}>Promises</TableHead>
                <TableHead className="text-right">
                  Kept rate<span className="sm:hidden"> · collected</span>
                </TableHead>
                <TableHead className={`text-right ${ON_WIDE}`}>Collected</TableHead>
                <TableHead className={ON_WIDE}>Cure rate by bucket</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={row.collectorId} data-testid={`row-performance-${row.collectorId}`}>
                  <TableCell className="whitespace-normal font-medium">
                    {row.name}
                    <span className="block font-normal text-muted-foreground text-xs sm:hidden">
                      {row.contacts} contacts · {row.promises} promises
                      {row.cure.length > 0 && <span className="block">Cured {cureText(row.cure)}</span>}
                    </span>
                  </TableCell>
                  <TableCell className={`text-right tabular-nums ${ON_WIDE}`}>{row.contacts}</TableCell>
                  <TableCell className={`text-right tabular-nums ${ON_WIDE}`}>{row.promises}</TableCell>
                  <TableCell className="text-right tabular-nums">
                    {row.keptRate === null ? '—' : formatPercent(row.keptRate * 100, 0)}
                    <span className="block text-muted-foreground text-xs">
                      {row.kept} of {row.promisesDue} due
                    </span>
                    <span className="block whitespace-nowrap sm:hidden">
                      {money(row.amountCollected, report.data?.currency ?? 'USD')}
                    </span>
                  </TableCell>
                  <TableCell className={`whitespace-nowrap text-right tabular-nums ${ON_WIDE}`}>
                    {money(row.amountCollected, report.data?.currency ?? 'USD')}
                  </TableCell>
                  <TableCell className={`text-xs ${ON_WIDE}`}>
                    {row.cure.length ? cureText(row.cure) : '—'}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Card>
      </ListStates>
      <CollectorsCard />
    </div>
  );
}

function CollectorsCard() {
  const [editing, setEditing] = useState<Collector | null>(null);
  const collectors = useQuery({
    queryKey: queryKeys.collections.collectors(),
    queryFn: () => api(collectionEndpoints.collectors),
  });
  const rows = collectors.data?.collectors ?? [];
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Collectors</CardTitle>
        <p className="text-muted-foreground text-sm">
          Automatic assignment deals cases round-robin to the active collectors of each case’s region (no
          regions: any region), each up to their cap of open cases.
        </p>
      </CardHeader>
      <CardContent>
        <ListStates
          label="Collectors"
          loading={collectors.isLoading}
          error={collectors.error ? errorMessage(collectors.error) : null}
          empty={rows.length ? null : 'No member of staff can work collections yet.'}
          testId="collectors"
        >
          <Table aria-label="Collectors" data-testid="table-collectors">
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead className={ON_WIDE}>Regions</TableHead>
                <TableHead className="text-right">Open cases</TableHead>
                <TableHead className={ON_WIDE}>Auto-assign</TableHead>
                <TableHead className="text-right">Settings</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((c) => (
                <TableRow key={c.userId} data-testid={`row-collector-${c.userId}`}>
                  <TableCell className="whitespace-normal font-medium">
                    {c.name}
                    <span className="block font-normal text-muted-foreground text-xs sm:hidden">
                      {c.regions.length ? c.regions.join(', ') : 'any region'} · auto-assign{' '}
                      {c.active ? 'on' : 'off'}
                    </span>
                  </TableCell>
                  <TableCell className={ON_WIDE}>{c.regions.length ? c.regions.join(', ') : 'any'}</TableCell>
                  <TableCell className="text-right tabular-nums">
                    {c.openCases} of {c.maxOpenCases}
                  </TableCell>
                  <TableCell className={ON_WIDE}>{c.active ? 'on' : 'off'}</TableCell>
                  <TableCell className="text-right">
                    <Button
                      size="sm"
                      variant="outline"
                      onClick={() => setEditing(c)}
                      data-testid={`button-edit-collector-${c.userId}`}
                    >
                      <Settings2 aria-hidden="true" />
                      Edit
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </ListStates>
      </CardContent>
      {editing && <CollectorDialog collector={editing} onClose={() => setEditing(null)} />}
    </Card>
  );
}

function CollectorDialog({ collector, onClose }: { collector: Collector; onClose: () => void }) {
  const queryClient = useQueryClient();
  const id = useId();
  const [regions, setRegions] = useState(collector.regions.join(', '));
  const [cap, setCap] = useState(String(collector.maxOpenCases));
  const [active, setActive] = useState(collector.active);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const mutation = useMutation({
    mutationFn: (maxOpenCases: number) =>
      api(collectionEndpoints.saveCollector, {
        params: { id: collector.userId },
        body: {
          regions: regions
            .split(',')
            .map((r) => r.trim())
            .filter(Boolean),
          maxOpenCases,
          active,
        },
      }),
    onSuccess: () => {
      void invalidate(queryClient, 'collectionsChanged');
      toast({ title: `${collector.name}’s settings saved` });
      onClose();
    },
    onError: (failure) => setErrors(fieldErrors(failure)),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = Number(cap);
    if (!/^\d+$/.test(cap.trim()) || value > 10_000) {
      setErrors({ maxOpenCases: 'Give a whole number from 0 to 10,000' });
      return;
    }
    mutation.mutate(value);
  };
  const general = mutation.error && Object.keys(fieldErrors(mutation.error)).length === 0;
  return (
    <Dialog open onOpenChange={(open) => !open && !mutation.isPending && onClose()}>
      <DialogContent data-testid="dialog-collector">
        <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-4">
          <DialogHeader>
            <DialogTitle>{collector.name}</DialogTitle>
            <DialogDescription>
              The regions they work and how many open cases they take at most.
            </DialogDescription>
          </DialogHeader>
          <FormAlert message={general ? errorMessage(mutation.error) : null} />
          <FormField
            id={`${id}-regions`}
            label="Regions"
            error={errors.regions}
            hint="Separated by commas; empty for any region."
          >
            {(control) => (
              <Input
                {...control}
                value={regions}
                onChange={(e) => setRegions(e.target.value)}
                data-testid="input-collector-regions"
              />
            )}
          </FormField>
          <FormField id={`${id}-cap`} label="Cap of open cases" error={errors.maxOpenCases}>
            {(control) => (
              <Input
                {...control}
                inputMode="numeric"
                value={cap}
                onChange={(e) => {
                  setCap(e.target.value);
                  setErrors({});
                }}
                data-testid="input-collector-cap"
              />
            )}
          </FormField>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={active}
              onChange={(e) => setActive(e.target.checked)}
              data-testid="checkbox-collector-active"
            />
            Deal them cases in automatic assignment
          </label>
          <DialogSubmitFooter
            onCancel={onClose}
            pending={mutation.isPending}
            label="Save"
            testId="button-save-collector"
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
