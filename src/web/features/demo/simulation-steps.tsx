import { CheckCircle2, FlaskConical, MessageSquareText, Smartphone } from 'lucide-react';
import type { ReactNode } from 'react';
import type { DemoPayment } from '@/contracts/demo';
import { FormField } from '@/web/components/form-field';
import { Input } from '@/web/components/ui/input';
import { money } from '@/web/lib/money';

/** What the visitor types in the simulated identity check: kept in the page, never sent. */
export interface SimulatedKyc {
  name: string;
  phone: string;
}

/** The identity check's messages, per field (empty when both are fine). */
export function kycErrors(kyc: SimulatedKyc): Partial<Record<keyof SimulatedKyc, string>> {
  const errors: Partial<Record<keyof SimulatedKyc, string>> = {};
  if (kyc.name.trim().length < 2) errors.name = 'Enter a name (any name: this is a simulation)';
  const digits = kyc.phone.replace(/[\s()-]/g, '');
  if (!/^\+?\d{7,15}$/.test(digits)) errors.phone = 'Enter a phone number of 7 to 15 digits';
  return errors;
}

/** The last digits only: the "SMS" screen shows where the code would go without repeating it all. */
export function maskedPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return digits.length > 3 ? `•••• ${digits.slice(-3)}` : phone;
}

export function SimulationNotice({ children }: { children: ReactNode }) {
  return (
    <p
      className="flex items-start gap-2 rounded-lg border border-warning/50 bg-warning/10 p-3 text-sm"
      data-testid="text-simulation-note"
    >
      <FlaskConical className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span>{children}</span>
    </p>
  );
}

export function KycStep({
  kyc,
  onChange,
  errors,
  note,
}: {
  kyc: SimulatedKyc;
  onChange: (kyc: SimulatedKyc) => void;
  errors: Partial<Record<keyof SimulatedKyc, string>>;
  note: string;
}) {
  return (
    <div className="grid grid-cols-1 gap-4">
      <SimulationNotice>
        <strong className="font-semibold">Simulation.</strong> {note}
      </SimulationNotice>
      <FormField id="demo-name" label="Full name" error={errors.name}>
        {(control) => (
          <Input
            {...control}
            autoComplete="off"
            value={kyc.name}
            onChange={(event) => onChange({ ...kyc, name: event.target.value })}
            data-testid="input-demo-name"
          />
        )}
      </FormField>
      <FormField
        id="demo-phone"
        label="Mobile number"
        error={errors.phone}
        hint="Where the unlock code would be sent."
      >
        {(control) => (
          <Input
            {...control}
            type="tel"
            inputMode="tel"
            autoComplete="off"
            value={kyc.phone}
            onChange={(event) => onChange({ ...kyc, phone: event.target.value })}
            data-testid="input-demo-phone"
          />
        )}
      </FormField>
    </div>
  );
}

export function PaymentStep({
  deposit,
  currency,
  payment,
  phone,
}: {
  deposit: number;
  currency: string;
  payment: DemoPayment | null;
  phone: string;
}) {
  if (!payment) {
    return (
      <div className="grid grid-cols-1 gap-4">
        <SimulationNotice>
          No money moves: the payment below is simulated and nothing is recorded.
        </SimulationNotice>
        <div className="flex items-center gap-3 rounded-xl border p-4">
          <Smartphone className="size-8 shrink-0 text-primary" aria-hidden="true" />
          <div>
            <p className="text-muted-foreground text-sm">Mobile money request to {maskedPhone(phone)}</p>
            <p className="font-semibold text-2xl tabular-nums" data-testid="text-demo-payment-amount">
              {money(deposit, currency)}
            </p>
          </div>
        </div>
      </div>
    );
  }
  return (
    <div
      className="grid grid-cols-1 gap-3 rounded-xl border border-success/50 bg-success/10 p-4"
      data-testid="card-demo-receipt"
    >
      <p className="flex items-center gap-2 font-medium">
        <CheckCircle2 className="size-5 text-success" aria-hidden="true" />
        Deposit received (simulated)
      </p>
      <dl className="grid grid-cols-2 gap-2 text-sm">
        <dt className="text-muted-foreground">Amount</dt>
        <dd className="text-right font-semibold tabular-nums">{money(payment.amount, payment.currency)}</dd>
        <dt className="text-muted-foreground">Receipt</dt>
        <dd className="text-right font-mono" data-testid="text-demo-receipt">
          {payment.receipt}
        </dd>
        <dt className="text-muted-foreground">Method</dt>
        <dd className="text-right">{payment.method}</dd>
      </dl>
    </div>
  );
}

export function UnlockStep({
  payment,
  phone,
  closing,
}: {
  payment: DemoPayment;
  phone: string;
  closing: string;
}) {
  return (
    <div className="grid grid-cols-1 gap-4">
      <figure
        className="mx-auto w-full max-w-sm rounded-2xl border bg-muted/40 p-4"
        aria-label="The SMS the customer would receive"
      >
        <figcaption className="mb-2 flex items-center gap-2 text-muted-foreground text-xs">
          <MessageSquareText className="size-4" aria-hidden="true" />
          SMS to {maskedPhone(phone)}
        </figcaption>
        <p className="rounded-2xl rounded-tl-sm bg-card p-3 text-sm shadow-sm" data-testid="text-demo-sms">
          {payment.sms}
        </p>
      </figure>
      <div className="text-center">
        <p className="text-muted-foreground text-sm">Unlock code</p>
        <p className="font-mono font-semibold text-3xl tracking-wider" data-testid="text-demo-unlock-code">
          {payment.unlockCode}
        </p>
        <p className="mt-1 text-muted-foreground text-sm">
          Typed on the {payment.deviceName}, it adds {payment.days} {payment.days === 1 ? 'day' : 'days'} of
          use.
        </p>
      </div>
      {closing && <p className="text-center text-sm">{closing}</p>}
    </div>
  );
}
