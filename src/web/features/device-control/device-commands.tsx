import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { RotateCw, Send } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { COMMANDS_FOR_CONTROL, deviceControlEndpoints, MIN_REASON_LENGTH } from '@/contracts/device-control';
import { type CommandKind, type DeviceDetail, MAX_TOKEN_DAYS } from '@/contracts/devices';
import { can } from '@/contracts/roles';
import { ConfirmDialog } from '@/web/components/confirm-dialog';
import { FormAlert } from '@/web/components/form-alert';
import { FormField } from '@/web/components/form-field';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input } from '@/web/components/ui/input';
import { NativeSelect } from '@/web/components/ui/native-select';
import { ON_WIDE, ON_WIDER, TableBody, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { TableSkeleton } from '@/web/features/admin-users/table-skeleton';
import { LOCK_LABELS, labelOf } from '@/web/features/devices/format';
import { TableRegion } from '@/web/features/devices/table-region';
import { useAuth } from '@/web/hooks/use-auth';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { invalidate } from '@/web/lib/mutation-effects';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage, fieldErrors } from '@/web/lib/queryClient';
import { CommandRow } from './command-row';
import { KIND_HINTS, KIND_LABELS } from './format';

/** The days rule of a token command; null when acceptable. */
export function tokenDaysIssue(text: string): string | null {
  if (!/^\d+$/.test(text.trim())) return 'Days must be a whole number';
  const days = Number(text);
  if (days < 1) return 'Give at least 1 day';
  if (days > MAX_TOKEN_DAYS) return `At most ${MAX_TOKEN_DAYS} days`;
  return null;
}

/** The unit page's Device control card: its lock state, its command history with attempts, and a manual command. */
export function DeviceCommandsCard({ device }: { device: DeviceDetail }) {
  const { user } = useAuth();
  const commands = useQuery({
    queryKey: queryKeys.deviceControl.device(device.id),
    queryFn: () => api(deviceControlEndpoints.deviceCommands, { params: { id: device.id } }),
    refetchInterval: (query) =>
      query.state.data?.some((command) => command.state === 'queued' || command.state === 'sent')
        ? 3000
        : false,
  });
  const kinds = COMMANDS_FOR_CONTROL[device.controlKind] as readonly CommandKind[];
  return (
    <Card data-testid="card-device-commands">
      <CardHeader>
        <CardTitle>Device control</CardTitle>
        <CardDescription>
          Lock state:{' '}
          <span data-testid="text-control-lock-state">{labelOf(LOCK_LABELS, device.lockState)}</span>. Every
          command sent to this unit, newest first; open one to see each delivery attempt.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-4">
        {kinds.length > 0 && can(user, 'devices.command') && (
          <ManualCommandForm device={device} kinds={kinds} />
        )}
        {commands.isLoading ? (
          <TableSkeleton rows={2} label="Loading the commands…" />
        ) : commands.error ? (
          <div role="alert" className="flex items-center gap-2 text-destructive text-sm">
            The commands could not be loaded: {errorMessage(commands.error)}
            <Button variant="outline" size="sm" onClick={() => void commands.refetch()}>
              <RotateCw aria-hidden="true" /> Try again
            </Button>
          </div>
        ) : !commands.data?.length ? (
          <p className="text-muted-foreground text-sm" data-testid="text-commands-empty">
            No command sent to this unit yet.
          </p>
        ) : (
          <TableRegion label="Commands" testId="table-device-commands">
            <TableHeader>
              <TableRow>
                <TableHead className="w-10">
                  <span className="sr-only">Attempts</span>
                </TableHead>
                <TableHead>Queued</TableHead>
                <TableHead className={ON_WIDE}>Kind</TableHead>
                <TableHead>State</TableHead>
                <TableHead className={`text-right ${ON_WIDE}`}>Attempts</TableHead>
                <TableHead className={ON_WIDER}>Reason</TableHead>
                <TableHead className="hidden lg:table-cell">Last error</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {commands.data.map((command) => (
                <CommandRow key={command.id} command={command} showUnit={false} />
              ))}
            </TableBody>
          </TableRegion>
        )}
      </CardContent>
    </Card>
  );
}

function ManualCommandForm({ device, kinds }: { device: DeviceDetail; kinds: readonly CommandKind[] }) {
  const client = useQueryClient();
  const [kind, setKind] = useState<CommandKind>(kinds[0] as CommandKind);
  const [days, setDays] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const send = useMutation({
    mutationFn: () =>
      api(deviceControlEndpoints.manual, {
        params: { id: device.id },
        body: { kind, reason: reason.trim(), ...(kind === 'token' ? { days: Number(days) } : {}) },
      }),
    onSuccess: (command) => {
      setConfirming(false);
      setReason('');
      setDays('');
      void invalidate(client, 'deviceCommandsQueued');
      void client.invalidateQueries({ queryKey: queryKeys.deviceControl.device(device.id) });
      toast({
        title: `${KIND_LABELS[command.kind]} queued`,
        description: `For ${device.serialNumber}: it goes out at once.`,
      });
    },
    onError: (failure) => {
      setConfirming(false);
      const fields = fieldErrors(failure);
      setErrors(fields);
      setAlert(Object.keys(fields).length ? null : errorMessage(failure));
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    const problems: Record<string, string> = {};
    if (reason.trim().length < MIN_REASON_LENGTH) problems.reason = 'Give the reason';
    const dayIssue = kind === 'token' ? tokenDaysIssue(days) : null;
    if (dayIssue) problems.days = dayIssue;
    setErrors(problems);
    if (Object.keys(problems).length) return;
    setConfirming(true);
  };
  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label="Manual command"
      className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-start"
      data-testid="form-manual-command"
    >
      <FormAlert message={alert} className="sm:basis-full" />
      <FormField id="command-kind" label="Command" hint={KIND_HINTS[kind]} className="sm:w-56">
        {(control) => (
          <NativeSelect
            {...control}
            value={kind}
            onChange={(event) => {
              setKind(event.target.value as CommandKind);
              setErrors({});
            }}
            data-testid="select-command-kind"
          >
            {kinds.map((option) => (
              <option key={option} value={option}>
                {KIND_LABELS[option]}
              </option>
            ))}
          </NativeSelect>
        )}
      </FormField>
      {kind === 'token' && (
        <FormField id="command-days" label="Days" error={errors.days} className="sm:w-28">
          {(control) => (
            <Input
              {...control}
              inputMode="numeric"
              value={days}
              onChange={(event) => setDays(event.target.value)}
              data-testid="input-command-days"
            />
          )}
        </FormField>
      )}
      <FormField
        id="command-reason"
        label="Reason"
        error={errors.reason}
        className="sm:w-72"
        hint="Recorded in the audit trail."
      >
        {(control) => (
          <Input
            {...control}
            maxLength={500}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            data-testid="input-command-reason"
          />
        )}
      </FormField>
      <Button type="submit" className="sm:mt-5.5" disabled={send.isPending} data-testid="button-send-command">
        <Send aria-hidden="true" /> Send
      </Button>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`${KIND_LABELS[kind]} ${device.serialNumber}?`}
        description={`${KIND_HINTS[kind]} Reason: “${reason.trim()}”.`}
        confirmLabel={`Send ${KIND_LABELS[kind].toLowerCase()}`}
        destructive={kind === 'lock' || kind === 'release'}
        pending={send.isPending}
        onConfirm={() => send.mutate()}
      />
    </form>
  );
}
