import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { collectionEndpoints } from '@/contracts/collections';
import { DialogSubmitFooter } from '@/web/components/dialog-submit-footer';
import { FormAlert } from '@/web/components/form-alert';
import { FormField } from '@/web/components/form-field';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/web/components/ui/dialog';
import { NativeSelect } from '@/web/components/ui/native-select';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { invalidate } from '@/web/lib/mutation-effects';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage, fieldErrors } from '@/web/lib/queryClient';

const NOBODY = '__nobody__';

/** Gives one or many cases to a collector (or takes them off their collector). Managers. */
export function AssignDialog({
  contracts,
  onClose,
  onDone,
}: {
  contracts: readonly { contractId: string; contractNumber: string }[];
  onClose: () => void;
  onDone?: () => void;
}) {
  const queryClient = useQueryClient();
  const id = useId();
  const [collector, setCollector] = useState('');
  const [error, setError] = useState<string | undefined>();
  const collectors = useQuery({
    queryKey: queryKeys.collections.collectors(),
    queryFn: () => api(collectionEndpoints.collectors),
  });
  const mutation = useMutation({
    mutationFn: () =>
      api(collectionEndpoints.assign, {
        body: {
          contractIds: contracts.map((c) => c.contractId),
          collectorId: collector === NOBODY ? null : collector,
        },
      }),
    onSuccess: (result) => {
      void invalidate(queryClient, 'collectionsChanged');
      toast({
        title: `${result.assigned} case${result.assigned === 1 ? '' : 's'} ${collector === NOBODY ? 'unassigned' : 'assigned'}`,
        ...(result.skipped ? { description: `${result.skipped} had no case in the queue` } : {}),
      });
      onDone?.();
      onClose();
    },
    onError: (failure) => setError(fieldErrors(failure).collectorId),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!collector) {
      setError('Choose a collector');
      return;
    }
    mutation.mutate();
  };
  const what = contracts.length === 1 ? (contracts[0]?.contractNumber ?? '') : `${contracts.length} cases`;
  const general =
    mutation.error && !fieldErrors(mutation.error).collectorId ? errorMessage(mutation.error) : null;
  return (
    <Dialog open onOpenChange={(open) => !open && !mutation.isPending && onClose()}>
      <DialogContent data-testid="dialog-assign">
        <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-4">
          <DialogHeader>
            <DialogTitle>Assign {what}</DialogTitle>
            <DialogDescription>
              The collector finds the cases in their own queue. A manager may assign beyond a collector’s cap.
            </DialogDescription>
          </DialogHeader>
          <FormAlert message={general} />
          <FormField id={`${id}-collector`} label="Collector" error={error}>
            {(control) => (
              <NativeSelect
                {...control}
                value={collector}
                disabled={collectors.isLoading}
                onChange={(event) => {
                  setCollector(event.target.value);
                  setError(undefined);
                }}
                data-testid="select-assign-collector"
              >
                <option value="">{collectors.isLoading ? 'Loading collectors…' : 'Choose…'}</option>
                {collectors.data?.collectors.map((c) => (
                  <option key={c.userId} value={c.userId}>
                    {c.name} ({c.openCases} open{c.active ? ` of ${c.maxOpenCases}` : ''})
                  </option>
                ))}
                <option value={NOBODY}>Nobody (unassign)</option>
              </NativeSelect>
            )}
          </FormField>
          <DialogSubmitFooter
            onCancel={onClose}
            pending={mutation.isPending}
            label="Assign"
            testId="button-submit-assign"
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
