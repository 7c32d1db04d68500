import { useQueryClient } from '@tanstack/react-query';
import { ScrollText } from 'lucide-react';
import { useEffect } from 'react';
import { type DeviceCommand, deviceControlEndpoints } from '@/contracts/device-control';
import { COMMAND_KINDS, COMMAND_STATES } from '@/contracts/devices';
import { ListPage } from '@/web/components/data-list';
import { Input } from '@/web/components/ui/input';
import { Label } from '@/web/components/ui/label';
import { ON_WIDE, ON_WIDER, TableBody, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { TableRegion } from '@/web/features/devices/table-region';
import { queryKeys } from '@/web/lib/query-keys';
import { CommandRow } from './command-row';
import { useFleetSummary } from './fleet';
import { KIND_LABELS, STATE_LABELS } from './format';

const KIND_OPTIONS = COMMAND_KINDS.map((kind) => [kind, KIND_LABELS[kind]] as const);
const STATE_OPTIONS = COMMAND_STATES.map((state) => [state, STATE_LABELS[state]] as const);
/** The log follows deliveries while it is open: each second while commands are in flight. */
const REFRESH_MS = 4000;
const IN_FLIGHT_REFRESH_MS = 1000;

/** The Command log tab: every device command, newest first, filtered; each expands to its attempts. */
export function CommandLog() {
  const client = useQueryClient();
  // The backlog says whether commands are queued or sent, waiting for their provider's answer.
  const fleet = useFleetSummary();
  const inFlight = (fleet.data?.commands.queued ?? 0) + (fleet.data?.commands.sent ?? 0) > 0;
  useEffect(() => {
    const timer = setInterval(
      () => {
        void client.invalidateQueries({ queryKey: queryKeys.deviceControl.commands() });
        void client.invalidateQueries({ queryKey: queryKeys.deviceControl.fleet() });
        // An acknowledged command moves its unit's lock state: the fleet's list and the units'
        // pages are read again when next shown, not left as they were before the delivery.
        void client.invalidateQueries({ queryKey: queryKeys.devices.all(), refetchType: 'none' });
      },
      inFlight ? IN_FLIGHT_REFRESH_MS : REFRESH_MS,
    );
    return () => clearInterval(timer);
  }, [client, inFlight]);
  return (
    <ListPage<DeviceCommand>
      endpoint={deviceControlEndpoints.commands}
      label="Device commands"
      testId="commands"
      searchPlaceholder="Search a unit’s serial or IMEI"
      filters={[
        { name: 'kind', label: 'Kind', allLabel: 'All kinds', options: KIND_OPTIONS, testId: 'command-kind' },
        {
          name: 'state',
          label: 'State',
          allLabel: 'All states',
          options: STATE_OPTIONS,
          testId: 'command-state',
        },
      ]}
      toolbar={(list) => (
        <>
          <DateFilter
            id="commands-from"
            label="From"
            value={list.state.filters.from ?? ''}
            onChange={(value) => list.setFilter('from', value)}
          />
          <DateFilter
            id="commands-to"
            label="To"
            value={list.state.filters.to ?? ''}
            onChange={(value) => list.setFilter('to', value)}
          />
        </>
      )}
      emptyIcon={ScrollText}
      empty={{
        filtered: 'No command matches this search or these filters.',
        none: 'No device command yet. Locks come from close of business, unlocks from payments, and managers send commands by hand.',
      }}
      renderItems={(items) => (
        <TableRegion label="Device commands" testId="table-commands">
          <TableHeader>
            <TableRow>
              <TableHead className="w-10">
                <span className="sr-only">Attempts</span>
              </TableHead>
              <TableHead>Queued</TableHead>
              <TableHead className={ON_WIDE}>Unit</TableHead>
              <TableHead className={ON_WIDE}>Kind</TableHead>
              <TableHead>State</TableHead>
              <TableHead className={`text-right ${ON_WIDE}`}>Attempts</TableHead>
              <TableHead className={ON_WIDER}>Reason</TableHead>
              <TableHead className="hidden lg:table-cell">Last error</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {items.map((command) => (
              <CommandRow key={command.id} command={command} />
            ))}
          </TableBody>
        </TableRegion>
      )}
    />
  );
}

function DateFilter({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="flex items-center gap-2">
      <Label htmlFor={id} className="text-muted-foreground text-xs">
        {label}
      </Label>
      <Input
        id={id}
        type="date"
        className="h-9 w-40"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        data-testid={`input-${id}`}
      />
    </div>
  );
}
