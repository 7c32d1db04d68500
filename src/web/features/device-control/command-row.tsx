import { useQuery } from '@tanstack/react-query';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { type DeviceCommand, deviceControlEndpoints } from '@/contracts/device-control';
import { Button } from '@/web/components/ui/button';
import { ON_WIDE, ON_WIDER, TableCell, TableRow } from '@/web/components/ui/table';
import { api } from '@/web/lib/api';
import { formatDateTime } from '@/web/lib/format';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';
import { AttemptsTable } from './attempts-table';
import { KIND_LABELS, PROVIDER_LABELS, SOURCE_LABELS } from './format';
import { CommandStateBadge } from './state-badge';

/** Who or what asked for a command. */
export function commandOrigin(command: DeviceCommand): string {
  if (command.requestedBy) return command.requestedBy.name;
  if (command.sourceType) return SOURCE_LABELS[command.sourceType] ?? command.sourceType;
  return 'System';
}

export const COMMAND_COLUMNS = 8;

/** One command of the log; its button expands every delivery attempt beneath it. */
export function CommandRow({ command, showUnit = true }: { command: DeviceCommand; showUnit?: boolean }) {
  const [open, setOpen] = useState(false);
  const detail = useQuery({
    queryKey: queryKeys.deviceControl.command(command.id, command.attempts, command.state),
    queryFn: () => api(deviceControlEndpoints.command, { params: { id: command.id } }),
    enabled: open,
  });
  const panelId = `attempts-${command.id}`;
  return (
    <>
      <TableRow data-testid={`row-command-${command.id}`} data-kind={command.kind} data-state={command.state}>
        <TableCell className="w-10 p-1">
          <Button
            variant="ghost"
            size="icon"
            aria-expanded={open}
            aria-controls={panelId}
            aria-label={`${open ? 'Hide' : 'Show'} the attempts of this ${KIND_LABELS[command.kind].toLowerCase()}`}
            onClick={() => setOpen(!open)}
            data-testid="button-expand-command"
          >
            {open ? <ChevronDown aria-hidden="true" /> : <ChevronRight aria-hidden="true" />}
          </Button>
        </TableCell>
        <TableCell className="whitespace-nowrap tabular-nums">
          {formatDateTime(command.createdAt)}
          <span className="block whitespace-normal text-xs sm:hidden">
            {showUnit && <span className="font-mono">{command.device.serialNumber} · </span>}
            {KIND_LABELS[command.kind]}
            {command.days !== null && ` · ${command.days} d`}
            <span className="text-muted-foreground">
              {' '}
              · {command.attempts} {command.attempts === 1 ? 'attempt' : 'attempts'}
            </span>
          </span>
        </TableCell>
        {showUnit && (
          <TableCell className={ON_WIDE}>
            <Link
              href={`/devices/${command.device.id}`}
              className="font-mono text-primary text-xs hover:underline"
            >
              {command.device.serialNumber}
            </Link>
          </TableCell>
        )}
        <TableCell className={ON_WIDE}>
          {KIND_LABELS[command.kind]}
          {command.days !== null && <span className="text-muted-foreground"> · {command.days} d</span>}
        </TableCell>
        <TableCell>
          <CommandStateBadge state={command.state} testId="badge-command-state" />
        </TableCell>
        <TableCell className={`text-right tabular-nums ${ON_WIDE}`} data-testid="text-command-attempts">
          {command.attempts}
        </TableCell>
        <TableCell className={`max-w-64 ${ON_WIDER}`}>
          <span className="line-clamp-2">{command.reason}</span>
          <span className="block text-muted-foreground text-xs">{commandOrigin(command)}</span>
        </TableCell>
        <TableCell className="hidden max-w-64 text-destructive text-xs lg:table-cell">
          {command.lastError ?? ''}
          {command.state === 'queued' && command.attempts > 0 && command.nextAttemptAt && (
            <span className="block text-muted-foreground">
              Next try {formatDateTime(command.nextAttemptAt)}
            </span>
          )}
        </TableCell>
      </TableRow>
      {open && (
        <TableRow id={panelId} className="bg-muted/30 hover:bg-muted/30">
          <TableCell colSpan={showUnit ? COMMAND_COLUMNS : COMMAND_COLUMNS - 1} className="p-3">
            <p className="mb-2 text-muted-foreground text-xs">
              {command.provider ? `Provider: ${PROVIDER_LABELS[command.provider] ?? command.provider}. ` : ''}
              {command.completedAt ? `Completed ${formatDateTime(command.completedAt)}.` : ''}
            </p>
            {detail.isLoading ? (
              <p className="text-muted-foreground text-sm">Loading the attempts…</p>
            ) : detail.error ? (
              <p role="alert" className="text-destructive text-sm">
                The attempts could not be loaded: {errorMessage(detail.error)}
              </p>
            ) : (
              <AttemptsTable
                attempts={detail.data?.attemptLog ?? []}
                testId={`table-attempts-${command.id}`}
              />
            )}
          </TableCell>
        </TableRow>
      )}
    </>
  );
}
