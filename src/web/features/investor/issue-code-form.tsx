import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Check, Copy, KeyRound } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { customerEndpoints } from '@/contracts/customers';
import { type InvestorCode, investorEndpoints } from '@/contracts/investor';
import { FormAlert } from '@/web/components/form-alert';
import { FormField } from '@/web/components/form-field';
import { Spinner } from '@/web/components/loaders';
import { Button } from '@/web/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/web/components/ui/dialog';
import { Input } from '@/web/components/ui/input';
import { NativeSelect } from '@/web/components/ui/native-select';
import { toast } from '@/web/hooks/use-toast';
import { api, apiOrNull } from '@/web/lib/api';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';

/** The default expiry: three months from today (a quarter's reporting). */
function inThreeMonths(): string {
  const date = new Date();
  date.setMonth(date.getMonth() + 3);
  return date.toISOString().slice(0, 10);
}

/** The portfolio's value in the scope select; any other value is a customer tag. */
const WHOLE = '';

/** Issues an investor code: label, expiry and scope; the code is shown once, in a dialog. */
export function IssueCodeForm() {
  const queryClient = useQueryClient();
  const [label, setLabel] = useState('');
  const [expiresOn, setExpiresOn] = useState(inThreeMonths);
  const [tag, setTag] = useState(WHOLE);
  const [alert, setAlert] = useState<string | null>(null);
  const [issued, setIssued] = useState<{ code: string; item: InvestorCode } | null>(null);
  const tags = useQuery({
    queryKey: queryKeys.customers.tags(),
    queryFn: () => apiOrNull(customerEndpoints.tags),
  });

  const issue = useMutation({
    mutationFn: () =>
      api(investorEndpoints.issue, {
        body: { label, expiresOn, scope: tag === WHOLE ? { kind: 'portfolio' } : { kind: 'tag', tag } },
      }),
    onSuccess: (answer) => {
      setIssued(answer);
      setLabel('');
      queryClient.setQueryData<{ items: InvestorCode[] }>(queryKeys.investor.codes(), (list) =>
        list ? { items: [answer.item, ...list.items] } : list,
      );
      void queryClient.invalidateQueries({ queryKey: queryKeys.investor.codes() });
    },
    onError: (error) => setAlert(errorMessage(error)),
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    issue.mutate();
  };

  return (
    <>
      <form
        onSubmit={onSubmit}
        noValidate
        className="grid grid-cols-1 gap-4"
        aria-label="Issue investor code"
      >
        <FormAlert message={alert} />
        <div className="grid grid-cols-1 items-start gap-4 md:grid-cols-[1fr_11rem_14rem_auto]">
          <FormField
            id="investor-code-label"
            label="Label"
            hint="Who the code is for: “Fund A — Acme Capital”."
          >
            {(control) => (
              <Input
                {...control}
                value={label}
                onChange={(e) => setLabel(e.target.value)}
                maxLength={100}
                required
                autoComplete="off"
                data-testid="input-investor-code-label"
              />
            )}
          </FormField>
          <FormField id="investor-code-expiry" label="Works until">
            {(control) => (
              <Input
                {...control}
                type="date"
                value={expiresOn}
                onChange={(e) => setExpiresOn(e.target.value)}
                required
                data-testid="input-investor-code-expiry"
              />
            )}
          </FormField>
          <FormField id="investor-code-scope" label="Shows" hint="A fund: the customers carrying that tag.">
            {(control) => (
              <NativeSelect
                {...control}
                value={tag}
                onChange={(e) => setTag(e.target.value)}
                data-testid="select-investor-code-scope"
              >
                <option value={WHOLE}>The whole portfolio</option>
                {(tags.data ?? []).map((t) => (
                  <option key={t} value={t}>
                    Fund “{t}”
                  </option>
                ))}
              </NativeSelect>
            )}
          </FormField>
          <Button
            type="submit"
            className="md:mt-5.5"
            disabled={issue.isPending}
            data-testid="button-issue-code"
          >
            {issue.isPending ? <Spinner className="size-4" /> : <KeyRound aria-hidden="true" />}
            {issue.isPending ? 'Issuing…' : 'Issue code'}
          </Button>
        </div>
      </form>
      <IssuedCodeDialog issued={issued} onClose={() => setIssued(null)} />
    </>
  );
}

/** The new code, once: it is stored hashed, so closing the dialog is the last time it is seen. */
function IssuedCodeDialog({
  issued,
  onClose,
}: {
  issued: { code: string; item: InvestorCode } | null;
  onClose: () => void;
}) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (!issued) return;
    try {
      await navigator.clipboard.writeText(issued.code);
      setCopied(true);
      toast({ title: 'Code copied', description: 'Send it to the investor by a trusted channel.' });
    } catch {
      document.getElementById('issued-investor-code')?.focus();
      toast({
        variant: 'destructive',
        title: 'Could not copy',
        description: 'Select the code and copy it by hand.',
      });
    }
  };
  return (
    <Dialog
      open={!!issued}
      onOpenChange={(open) => {
        if (!open) {
          setCopied(false);
          onClose();
        }
      }}
    >
      <DialogContent data-testid="dialog-investor-code">
        <DialogHeader>
          <DialogTitle>Investor code for {issued?.item.label}</DialogTitle>
          <DialogDescription>
            Copy it now: it is shown only this once. It works until {issued?.item.expiresOn} (end of day, UTC)
            unless you revoke it.
          </DialogDescription>
        </DialogHeader>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Input
            id="issued-investor-code"
            readOnly
            value={issued?.code ?? ''}
            onFocus={(e) => e.currentTarget.select()}
            className="font-mono text-base tracking-wider"
            aria-label="Investor code"
            data-testid="text-investor-code"
          />
          <Button type="button" variant="outline" onClick={copy} data-testid="button-copy-investor-code">
            {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
            {copied ? 'Copied' : 'Copy'}
          </Button>
        </div>
        <DialogFooter>
          <Button type="button" onClick={onClose} data-testid="button-investor-code-done">
            I have copied it
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
