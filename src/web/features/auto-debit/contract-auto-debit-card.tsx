import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  autoDebitEndpoints,
  MANDATE_METHOD_LABELS,
  type Mandate,
  type MandateCreateBody,
} from '@/contracts/auto-debit';
import type { Contract } from '@/contracts/contracts';
import { can } from '@/contracts/roles';
import { FormAlert } from '@/web/components/form-alert';
import { FormInput, FormSelect } from '@/web/components/form-controls';
import { Spinner } from '@/web/components/loaders';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/web/components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/web/components/ui/dialog';
import { useAuth } from '@/web/hooks/use-auth';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { formatBusinessDate } from '@/web/lib/format';
import { applyServerError } from '@/web/lib/forms';
import { money } from '@/web/lib/money';
import { invalidate } from '@/web/lib/mutation-effects';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';
import { attemptResult, attemptText } from './auto-debit-format';
import { MandateStatus } from './auto-debit-monitor';
import { MandateToggleDialog } from './mandate-dialogs';

/** Contracts a mandate can still be added to (the server refuses the others). */
const OPEN_STATUSES = new Set(['draft', 'pending_approval', 'active', 'defaulted']);

/** The contract page's "Auto-debit" card (finance): its mandates, the latest attempts, adding one. */
export function ContractAutoDebitCard({ contract }: { contract: Pick<Contract, 'id' | 'status'> }) {
  const { user } = useAuth();
  if (!can(user, 'finance.read')) return null;
  return <AutoDebitCardBody contract={contract} manage={can(user, 'payments.manage')} />;
}

function AutoDebitCardBody({
  contract,
  manage,
}: {
  contract: Pick<Contract, 'id' | 'status'>;
  manage: boolean;
}) {
  const [adding, setAdding] = useState(false);
  const [toggling, setToggling] = useState<Mandate | null>(null);
  const query = useQuery({
    queryKey: queryKeys.autoDebit.contract(contract.id),
    queryFn: () => api(autoDebitEndpoints.contractMandates, { params: { id: contract.id } }),
  });
  const usedMethods = new Set(query.data?.mandates.map((m) => m.method) ?? []);
  const canAdd = manage && OPEN_STATUSES.has(contract.status) && usedMethods.size < 3;
  return (
    <Card data-testid="card-contract-auto-debit">
      <CardHeader className="flex flex-row items-center justify-between gap-2 pb-3">
        <CardTitle className="text-base">Auto-debit</CardTitle>
        {canAdd && (
          <Button
            size="sm"
            variant="outline"
            onClick={() => setAdding(true)}
            data-testid="button-add-mandate"
          >
            <Plus aria-hidden="true" />
            Add mandate
          </Button>
        )}
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-3 text-sm">
        {query.isPending ? (
          <Spinner className="size-4" />
        ) : query.isError ? (
          <p role="alert" className="text-destructive">
            {errorMessage(query.error)}
          </p>
        ) : query.data.mandates.length === 0 ? (
          <p className="text-muted-foreground" data-testid="text-no-mandate">
            No mandate: instalments are not debited automatically.
          </p>
        ) : (
          <>
            <ul className="grid grid-cols-1 gap-2">
              {query.data.mandates.map((mandate) => (
                <li
                  key={mandate.id}
                  className="flex items-start justify-between gap-3"
                  data-testid={`row-contract-mandate-${mandate.id}`}
                >
                  <div className="min-w-0">
                    <p className="font-medium">{MANDATE_METHOD_LABELS[mandate.method]}</p>
                    <p className="truncate font-mono text-muted-foreground text-xs">{mandate.account}</p>
                    <MandateStatus mandate={mandate} />
                  </div>
                  {manage && (
                    <Button
                      size="sm"
                      variant="outline"
                      onClick={() => setToggling(mandate)}
                      data-testid={`button-toggle-contract-mandate-${mandate.id}`}
                    >
                      {mandate.active ? 'Pause' : 'Resume'}
                    </Button>
                  )}
                </li>
              ))}
            </ul>
            {query.data.next && (
              <p className="border-t pt-3" data-testid="text-next-debit">
                Next debit {formatBusinessDate(query.data.next.dueDate)}:{' '}
                <span className="font-medium tabular-nums">
                  {money(query.data.next.amount, query.data.next.currency)}
                </span>{' '}
                <span className="text-muted-foreground text-xs">owed on it now</span>
              </p>
            )}
            {query.data.attempts.length > 0 && (
              <ul className="grid grid-cols-1 gap-1.5 border-t pt-3" aria-label="Latest attempts">
                {query.data.attempts.slice(0, 6).map((a) => {
                  const result = attemptResult(a);
                  return (
                    <li
                      key={a.id}
                      className="flex items-start justify-between gap-3"
                      data-testid="item-attempt"
                    >
                      <div className="min-w-0">
                        <p>Due {formatBusinessDate(a.dueDate)}</p>
                        <p className="text-muted-foreground text-xs">
                          {attemptText(a.attempt)} · {formatBusinessDate(a.scheduledFor)}
                          {a.failureReason ? ` · ${a.failureReason}` : ''}
                          {result.note ? ` · ${result.note}` : ''}
                        </p>
                      </div>
                      <Badge variant={result.variant}>{result.label}</Badge>
                    </li>
                  );
                })}
              </ul>
            )}
          </>
        )}
      </CardContent>
      {adding && (
        <AddMandateDialog contractId={contract.id} used={usedMethods} onClose={() => setAdding(false)} />
      )}
      <MandateToggleDialog mandate={toggling} onClose={() => setToggling(null)} />
    </Card>
  );
}

function AddMandateDialog({
  contractId,
  used,
  onClose,
}: {
  contractId: string;
  used: ReadonlySet<string>;
  onClose: () => void;
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const choices = Object.entries(MANDATE_METHOD_LABELS).filter(([method]) => !used.has(method));
  const form = useForm<MandateCreateBody>({
    defaultValues: {
      method: (choices[0]?.[0] ?? 'mobile_money') as MandateCreateBody['method'],
      account: '',
      consentReference: '',
    },
  });
  const [general, setGeneral] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: (body: MandateCreateBody) =>
      api(autoDebitEndpoints.createMandate, { params: { id: contractId }, body }),
    onSuccess: (mandate) => {
      void invalidate(queryClient, 'mandateChanged', contractId);
      toast({ title: `${MANDATE_METHOD_LABELS[mandate.method]} mandate added` });
      onClose();
    },
    onError: (error) => setGeneral(applyServerError(form, error, ['method', 'account', 'consentReference'])),
  });
  return (
    <Dialog open onOpenChange={(next) => !next && !mutation.isPending && onClose()}>
      <DialogContent data-testid="dialog-add-mandate">
        <form
          noValidate
          className="grid grid-cols-1 gap-4"
          onSubmit={form.handleSubmit((values) => {
            setGeneral(null);
            mutation.mutate(values);
          })}
        >
          <DialogHeader>
            <DialogTitle>Add an auto-debit mandate</DialogTitle>
            <DialogDescription>
              Record the customer’s signed consent. Each instalment is then debited on its due date, and
              retried when the debit fails.
            </DialogDescription>
          </DialogHeader>
          <FormAlert message={general} />
          <FormSelect
            form={form}
            name="method"
            id={`${id}-method`}
            label="Method"
            options={choices}
            clearErrorOnChange
            data-testid="select-mandate-method"
          />
          <FormInput
            form={form}
            name="account"
            id={`${id}-account`}
            label="Account to debit"
            hint="The phone for mobile money, the card token, or the bank account."
            clearErrorOnChange
            registerOptions={{ required: 'Give the account to debit' }}
            data-testid="input-mandate-account"
          />
          <FormInput
            form={form}
            name="consentReference"
            id={`${id}-consent`}
            label="Consent reference"
            hint="The number of the signed mandate form or the provider’s consent id."
            clearErrorOnChange
            registerOptions={{ required: 'Give the consent reference' }}
            data-testid="input-mandate-consent"
          />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose} disabled={mutation.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={mutation.isPending} data-testid="button-save-mandate">
              {mutation.isPending && <Spinner className="size-4" />}
              Add mandate
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
