import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarClock, RotateCw } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  type BusinessDateState,
  businessDateEndpoints,
  type MoveBusinessDateBody,
  moveBusinessDateBody,
} from '@/contracts/business-date';
import { ConfirmDialog } from '@/web/components/confirm-dialog';
import { FormAlert } from '@/web/components/form-alert';
import { FormInput } from '@/web/components/form-controls';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Skeleton } from '@/web/components/ui/skeleton';
import { toast } from '@/web/hooks/use-toast';
import { api, apiOrNull } from '@/web/lib/api';
import { formatBusinessDate } from '@/web/lib/format';
import { applyServerError } from '@/web/lib/forms';
import { invalidate } from '@/web/lib/mutation-effects';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';

/**
 * The business date every date rule uses, and the last closed date, for administrators. Where the
 * server allows it (BUSINESS_DATE_CONTROL: test, training and demo instances), it moves forward
 * here, after a confirmation: instalments fall due and arrears grow as if the days had passed.
 */
export function BusinessDateCard() {
  const state = useQuery({
    queryKey: queryKeys.settings.businessDate(),
    queryFn: () => apiOrNull(businessDateEndpoints.get),
  });
  return (
    <Card data-testid="card-business-date">
      <CardHeader>
        <CardTitle>Business date</CardTitle>
        <CardDescription>
          The day that due dates, days past due and the close of business go by: today in the organisation's
          time zone, unless it was moved forward on a test or training server.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {state.isLoading ? (
          <div role="status" className="grid grid-cols-1 gap-3">
            <span className="sr-only">Loading the business date…</span>
            <Skeleton className="h-12 w-full" />
          </div>
        ) : state.error || !state.data ? (
          <div role="alert" className="grid grid-cols-1 justify-items-start gap-2 text-sm">
            <p className="text-destructive">
              The business date could not be loaded{state.error ? `: ${errorMessage(state.error)}` : '.'}
            </p>
            <Button variant="outline" size="sm" onClick={() => void state.refetch()}>
              <RotateCw aria-hidden="true" />
              Try again
            </Button>
          </div>
        ) : (
          <div className="grid grid-cols-1 gap-6">
            <dl className="grid grid-cols-1 gap-4 sm:grid-cols-2">
              <div>
                <dt className="text-muted-foreground text-xs">Business date</dt>
                <dd className="font-medium text-lg tabular-nums" data-testid="text-business-date">
                  {formatBusinessDate(state.data.businessDate)}
                </dd>
              </div>
              <div>
                <dt className="text-muted-foreground text-xs">Last closed date</dt>
                <dd className="font-medium text-lg tabular-nums" data-testid="text-last-closed-date">
                  {state.data.lastClosedDate ? formatBusinessDate(state.data.lastClosedDate) : 'None yet'}
                </dd>
              </div>
            </dl>
            {state.data.control && <MoveForm key={state.data.businessDate} state={state.data} />}
          </div>
        )}
      </CardContent>
    </Card>
  );
}

/** The date to move to, then a confirmation; the server's refusal goes under the field. */
function MoveForm({ state }: { state: BusinessDateState }) {
  const queryClient = useQueryClient();
  const [alert, setAlert] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const form = useForm<MoveBusinessDateBody>({
    resolver: zodResolver(moveBusinessDateBody),
    defaultValues: { businessDate: '' },
    mode: 'onTouched',
  });

  const move = useMutation({
    mutationFn: (body: MoveBusinessDateBody) => api(businessDateEndpoints.move, { body }),
    onSuccess: (moved) => {
      setConfirming(null);
      queryClient.setQueryData(queryKeys.settings.businessDate(), moved);
      void invalidate(queryClient, 'businessDateMoved');
      toast({
        title: 'Business date moved',
        description: `It is now ${formatBusinessDate(moved.businessDate)} for every date rule.`,
      });
    },
    onError: (error) => {
      setConfirming(null);
      setAlert(applyServerError(form, error, ['businessDate']));
    },
  });

  const onSubmit = form.handleSubmit(({ businessDate }) => {
    setAlert(null);
    setConfirming(businessDate);
  });

  return (
    <>
      <form
        onSubmit={onSubmit}
        noValidate
        className="grid grid-cols-1 gap-3 border-t pt-4"
        aria-label="Move the business date"
      >
        <FormAlert message={alert} />
        <div className="flex flex-wrap items-end gap-3">
          <FormInput
            form={form}
            name="businessDate"
            id="business-date"
            label="Move to"
            hint="Forward only. For test and training servers: instalments fall due as if the days had passed."
            type="date"
            min={state.businessDate}
            controlClassName="w-44 dark:[color-scheme:dark]"
            clearErrorOnChange
            data-testid="input-business-date"
          />
          <Button type="submit" disabled={move.isPending} data-testid="button-move-business-date">
            <CalendarClock aria-hidden="true" />
            Move forward
          </Button>
        </div>
      </form>
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title="Move the business date forward?"
        description={
          confirming
            ? `From ${formatBusinessDate(state.businessDate)} to ${formatBusinessDate(confirming)}, for everyone. Instalments fall due and arrears grow as if the days had passed; it cannot be moved back.`
            : ''
        }
        confirmLabel="Move forward"
        pending={move.isPending}
        onConfirm={() => confirming && move.mutate({ businessDate: confirming })}
      />
    </>
  );
}
