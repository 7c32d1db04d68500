import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Check, Copy, KeyRound, RotateCw, Ticket, TriangleAlert } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import {
  type ContractStanding,
  type DeviceDetail,
  deviceEndpoints,
  type IssuedToken,
  MAX_TOKEN_DAYS,
  TOKEN_TYPES,
  type TokenCreateBody,
  tokenGivesUse,
} from '@/contracts/devices';
import { can } from '@/contracts/roles';
import { formatMoney } from '@/domain/money';
import { maxTokenDays, roundHalfEven } from '@/domain/openpaygo/divider';
import { ConfirmDialog } from '@/web/components/confirm-dialog';
import { FormAlert } from '@/web/components/form-alert';
import { FormField } from '@/web/components/form-field';
import { Spinner } from '@/web/components/loaders';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Input } from '@/web/components/ui/input';
import { NativeSelect } from '@/web/components/ui/native-select';
import { ON_WIDE, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/web/components/ui/table';
import { TableSkeleton } from '@/web/features/admin-users/table-skeleton';
import { useAuth } from '@/web/hooks/use-auth';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { formatDateTime } from '@/web/lib/format';
import { invalidate } from '@/web/lib/mutation-effects';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage, fieldErrors } from '@/web/lib/queryClient';
import { groupToken, labelOf, TOKEN_TYPE_HINTS, TOKEN_TYPE_LABELS } from './format';
import { TableRegion } from './table-region';

type TokenType = (typeof TOKEN_TYPES)[number];
const timed = (type: string) => type === 'ADD_TIME' || type === 'SET_TIME';

/**
 * The days rule of the API, per type and the unit's time divider (a token carries days ×
 * divider, rounded as the official library does, at most 995); null when the value is acceptable.
 */
export function daysIssue(type: TokenType, text: string, divider = 1): string | null {
  if (!timed(type)) return null;
  if (!text.trim()) return `${TOKEN_TYPE_LABELS[type]} needs the number of days`;
  if (!/^\d+(\.\d+)?$/.test(text.trim())) {
    return divider === 1 ? 'Days must be a number, such as 7' : 'Days must be a number, such as 1.5';
  }
  const value = roundHalfEven(Number(text) * divider);
  if (Math.abs(Number(text) * divider - value) > 1e-6) {
    return divider === 1
      ? 'Days must be a whole number on this unit'
      : `Days must be in steps of 1/${divider} day`;
  }
  if (type === 'ADD_TIME' && value < 1) {
    return divider === 1 ? 'Add at least 1 day' : `Add at least 1/${divider} of a day`;
  }
  if (value > MAX_TOKEN_DAYS) {
    const most = maxTokenDays(divider);
    return divider === 1
      ? `At most ${MAX_TOKEN_DAYS} days per token`
      : `At most ${most} days per token on this unit (divider ${divider})`;
  }
  return null;
}

/** Days as shown: whole, or to two decimals for a fraction. */
function daysText(days: number): string {
  const text = Number.isInteger(days) ? String(days) : days.toFixed(2).replace(/0$/, '');
  return `${text} ${days === 1 ? 'day' : 'days'}`;
}

/** OpenPAYGO: the unit's settings (never its key), issuing a token, and every token issued. */
export function OpenPaygoCard({ device }: { device: DeviceDetail }) {
  const { user } = useAuth();
  const control = device.control;
  return (
    <Card data-testid="card-openpaygo">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <KeyRound className="size-4 text-primary" aria-hidden="true" /> OpenPAYGO
        </CardTitle>
        <CardDescription>
          The device unlocks for the days each token carries. Its secret key is stored encrypted and is never
          shown.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-6">
        {control ? (
          <dl className="grid grid-cols-3 gap-3 text-sm" data-testid="list-openpaygo-settings">
            <div>
              <dt className="text-muted-foreground text-xs">Starting code</dt>
              <dd className="font-mono" data-testid="text-starting-code">
                {control.startingCode}
              </dd>
            </div>
            <div>
              <dt className="text-muted-foreground text-xs">Token count</dt>
              <dd className="tabular-nums" data-testid="text-token-count">
                {control.count}
              </dd>
            </div>
            <div>
              <dt className="text-muted-foreground text-xs">Time divider</dt>
              <dd className="tabular-nums">{control.timeDivider}</dd>
            </div>
          </dl>
        ) : (
          <p className="text-muted-foreground text-sm">This unit has no OpenPAYGO settings.</p>
        )}
        {control && can(user, 'devices.control') ? (
          <IssueTokenForm device={device} mayOverride={can(user, 'devices.override')} />
        ) : control ? (
          <p className="text-muted-foreground text-sm" data-testid="text-token-permission">
            Managers issue tokens by hand; contracts issue them on activation and payment.
          </p>
        ) : null}
        {can(user, 'devices.requestLock') ? (
          <TokenHistory deviceId={device.id} />
        ) : (
          <p className="text-muted-foreground text-sm">Collectors and above can see the tokens issued.</p>
        )}
      </CardContent>
    </Card>
  );
}

/** The contract's arrears, beside the button: giving use to this unit is a manual override. */
export function arrearsNote(standing: ContractStanding): string {
  const days = `${standing.dpd} ${standing.dpd === 1 ? 'day' : 'days'}`;
  return `${standing.number} is ${days} in arrears: ${formatMoney(standing.overdue, standing.currency)} overdue.`;
}

function IssueTokenForm({ device, mayOverride }: { device: DeviceDetail; mayOverride: boolean }) {
  const queryClient = useQueryClient();
  const [type, setType] = useState<TokenType>('ADD_TIME');
  const [days, setDays] = useState('');
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const standing = device.contract;
  // A token that gives use to a unit in arrears: the server asks for an override with a reason.
  const override = standing !== null && standing.dpd > 0 && tokenGivesUse(type);
  const [alert, setAlert] = useState<string | null>(null);
  const [issued, setIssued] = useState<IssuedToken | null>(null);
  const [confirming, setConfirming] = useState(false);

  const issue = useMutation({
    mutationFn: (body: TokenCreateBody) =>
      api(deviceEndpoints.issueToken, { params: { id: device.id }, body }),
    onSuccess: (token) => {
      setConfirming(false);
      setIssued(token);
      setDays('');
      setReason('');
      void invalidate(queryClient, 'deviceTokenIssued', device.id);
    },
    onError: (failure) => {
      setConfirming(false);
      const fields = fieldErrors(failure);
      setError(fields.days ?? null);
      setReasonError(fields.overrideReason ?? null);
      setAlert(fields.days || fields.overrideReason ? null : errorMessage(failure));
    },
  });

  const send = () =>
    issue.mutate({
      type,
      ...(timed(type) ? { days: Number(days.trim()) } : {}),
      ...(override ? { overrideReason: reason.trim() } : {}),
    });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    setIssued(null);
    const problem = daysIssue(type, days, device.control?.timeDivider ?? 1);
    setError(problem);
    const reasonProblem = override && reason.trim().length < 3 ? 'Give the reason for the override' : null;
    setReasonError(reasonProblem);
    if (problem || reasonProblem) return;
    if (type === 'DISABLE_PAYG') setConfirming(true);
    else send();
  };

  return (
    <div className="grid grid-cols-1 gap-4">
      <form
        onSubmit={submit}
        noValidate
        className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-start"
        aria-label="Issue token"
        data-testid="form-token"
      >
        <FormAlert message={alert} className="sm:basis-full" />
        <FormField id="token-type" label="Token type" hint={TOKEN_TYPE_HINTS[type]} className="sm:w-64">
          {(control) => (
            <NativeSelect
              {...control}
              value={type}
              onChange={(event) => {
                setType(event.target.value as TokenType);
                setError(null);
              }}
              data-testid="select-token-type"
            >
              {TOKEN_TYPES.map((option) => (
                <option key={option} value={option}>
                  {TOKEN_TYPE_LABELS[option]}
                </option>
              ))}
            </NativeSelect>
          )}
        </FormField>
        {timed(type) ? (
          <FormField id="token-days" label="Days" error={error ?? undefined} className="sm:w-32">
            {(control) => (
              <Input
                {...control}
                inputMode={(device.control?.timeDivider ?? 1) > 1 ? 'decimal' : 'numeric'}
                autoComplete="off"
                value={days}
                onChange={(event) => {
                  setDays(event.target.value);
                  setError(null);
                }}
                data-testid="input-token-days"
              />
            )}
          </FormField>
        ) : null}
        {override && mayOverride ? (
          <FormField
            id="token-override-reason"
            label="Reason for the override"
            error={reasonError ?? undefined}
            hint="Recorded in the audit trail with the arrears."
            className="sm:w-72"
          >
            {(control) => (
              <Input
                {...control}
                autoComplete="off"
                maxLength={500}
                value={reason}
                onChange={(event) => {
                  setReason(event.target.value);
                  setReasonError(null);
                }}
                data-testid="input-token-override-reason"
              />
            )}
          </FormField>
        ) : null}
        <Button
          type="submit"
          className="w-full sm:mt-5.5 sm:w-auto"
          disabled={issue.isPending || (override && !mayOverride)}
          data-testid="button-issue-token"
        >
          {issue.isPending ? <Spinner className="size-4" /> : <Ticket aria-hidden="true" />}
          {override ? 'Issue by override' : 'Issue token'}
        </Button>
        {standing && standing.dpd > 0 ? (
          <p
            className="flex items-start gap-2 text-sm sm:basis-full"
            role="note"
            data-testid="text-token-arrears"
          >
            <TriangleAlert className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden="true" />
            <span>
              {arrearsNote(standing)}{' '}
              {mayOverride
                ? 'Time or an unlock for this unit is a manual override, with a reason.'
                : 'Only a manager may give this unit time or an unlock, by manual override.'}
            </span>
          </p>
        ) : null}
      </form>
      <div aria-live="polite">{issued && <IssuedTokenPanel token={issued} />}</div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Disable pay-as-you-go for good?"
        description={`The token unlocks ${device.serialNumber} permanently: no later token can lock it again. Use it when the contract is paid off.`}
        confirmLabel="Issue unlock token"
        destructive
        pending={issue.isPending}
        onConfirm={send}
      />
    </div>
  );
}

/** The token just issued, large and copyable, for reading out to the customer. */
export function IssuedTokenPanel({ token }: { token: IssuedToken }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(token.token);
      setCopied(true);
      toast({ title: 'Token copied', description: 'Send it to the customer or read it out.' });
    } catch {
      toast({
        variant: 'destructive',
        title: 'Could not copy',
        description: 'Select the token and copy it by hand.',
      });
    }
  };
  return (
    <section
      aria-labelledby="token-issued-title"
      className="grid grid-cols-1 gap-3 rounded-lg border border-primary/40 bg-primary/5 p-4"
      data-testid="panel-token-issued"
    >
      <h3 id="token-issued-title" className="font-semibold text-sm">
        {labelOf(TOKEN_TYPE_LABELS, token.type)}
        {token.days !== null ? `: ${daysText(token.days)}` : ''} — token #{token.count}
      </h3>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <output
          className="select-all break-all font-mono font-semibold text-3xl tracking-widest sm:text-4xl"
          aria-label={`Token ${token.token.split('').join(' ')}`}
          data-testid="text-issued-token"
          data-token={token.token}
        >
          {groupToken(token.token)}
        </output>
        <Button variant="outline" onClick={() => void copy()} data-testid="button-copy-token">
          {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <p className="text-muted-foreground text-xs">
        The customer types it on the device keypad. Tokens must be entered in order of issue.
      </p>
    </section>
  );
}

function TokenHistory({ deviceId }: { deviceId: string }) {
  const tokens = useQuery({
    queryKey: queryKeys.devices.tokens(deviceId),
    queryFn: () => api(deviceEndpoints.tokens, { params: { id: deviceId } }),
    staleTime: 0,
  });
  return (
    <section aria-labelledby="token-history-title" className="grid grid-cols-1 gap-2">
      <h3 id="token-history-title" className="font-semibold text-sm">
        Tokens issued
      </h3>
      {tokens.isLoading ? (
        <TableSkeleton rows={2} label="Loading tokens…" />
      ) : tokens.error ? (
        <div role="alert" className="flex items-center gap-2 text-destructive text-sm">
          The tokens could not be loaded: {errorMessage(tokens.error)}
          <Button variant="outline" size="sm" onClick={() => void tokens.refetch()}>
            <RotateCw aria-hidden="true" /> Try again
          </Button>
        </div>
      ) : !tokens.data?.length ? (
        <p className="text-muted-foreground text-sm" data-testid="text-tokens-empty">
          No token issued yet.
        </p>
      ) : (
        <TableRegion label="Tokens issued" testId="table-tokens">
          <TableHeader>
            <TableRow>
              <TableHead>Issued</TableHead>
              <TableHead>Type</TableHead>
              <TableHead className={`text-right ${ON_WIDE}`}>Days</TableHead>
              <TableHead>Token</TableHead>
              <TableHead className={`text-right ${ON_WIDE}`}>Count</TableHead>
              <TableHead className={ON_WIDE}>By</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {tokens.data.map((token) => (
              <TableRow key={token.id} data-testid={`row-token-${token.id}`}>
                <TableCell className="tabular-nums">{formatDateTime(token.issuedAt)}</TableCell>
                <TableCell>
                  {labelOf(TOKEN_TYPE_LABELS, token.type)}
                  {token.days !== null && <span className="sm:hidden"> · {daysText(token.days)}</span>}
                </TableCell>
                <TableCell className={`text-right tabular-nums ${ON_WIDE}`}>
                  {token.days === null ? '—' : daysText(token.days).replace(/ days?$/, '')}
                </TableCell>
                <TableCell className="font-mono">{groupToken(token.token)}</TableCell>
                <TableCell className={`text-right tabular-nums ${ON_WIDE}`}>{token.count}</TableCell>
                <TableCell className={ON_WIDE}>
                  {token.issuedBy?.name ??
                    (token.contractId ? (
                      <Link href={`/contracts/${token.contractId}`} className="text-primary hover:underline">
                        Contract
                      </Link>
                    ) : (
                      'System'
                    ))}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </TableRegion>
      )}
    </section>
  );
}
