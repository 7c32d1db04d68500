import { useMutation } from '@tanstack/react-query';
import { ArrowLeft, ArrowRight, RotateCcw, Wallet } from 'lucide-react';
import { type FormEvent, useId, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { DEMO_STEPS, type DemoContent, type DemoPayment, demoDeposit, demoEndpoints } from '@/contracts/demo';
import { FormAlert } from '@/web/components/form-alert';
import { Spinner } from '@/web/components/loaders';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent } from '@/web/components/ui/card';
import { api } from '@/web/lib/api';
import { errorMessage } from '@/web/lib/queryClient';
import { DeviceChoices, PlanChoices } from './choice-steps';
import { ScheduleStep } from './schedule-step';
import { KycStep, kycErrors, PaymentStep, type SimulatedKyc, UnlockStep } from './simulation-steps';
import { StepProgress } from './step-progress';

interface Choices {
  deviceId: string | null;
  planId: string | null;
  kyc: SimulatedKyc;
}
const START: Choices = { deviceId: null, planId: null, kyc: { name: '', phone: '' } };

/**
 * The guided walk-through: device, plan, schedule, simulated identity check, simulated deposit and
 * the unlock code. Each step is a form, so Enter moves on; Back keeps what was chosen; the step's
 * heading takes the focus when the step changes, so screen readers and keyboards follow along.
 * Nothing the visitor types leaves the page: the payment call names only the device and the plan.
 */
export function DemoWalkthrough({
  content,
  currency,
  preview,
}: {
  content: DemoContent;
  currency: string;
  preview: boolean;
}) {
  const [stepIndex, setStepIndex] = useState(0);
  const [choices, setChoices] = useState<Choices>(START);
  const [showErrors, setShowErrors] = useState(false);
  const [payment, setPayment] = useState<DemoPayment | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const headingId = useId();

  const step = DEMO_STEPS[stepIndex] ?? 'device';
  const texts = content.texts.steps[step];
  const device = content.devices.find((item) => item.id === choices.deviceId);
  const plan = content.plans.find((item) => item.id === choices.planId);

  const pay = useMutation({
    mutationFn: () => {
      if (!device || !plan) throw new Error('Choose a device and a plan first');
      return api(demoEndpoints.payment, { body: { deviceId: device.id, planId: plan.id, preview } });
    },
    onSuccess: setPayment,
  });

  const go = (index: number) => {
    setShowErrors(false);
    // The new step's heading takes the focus, so keyboards and screen readers follow along.
    flushSync(() => setStepIndex(index));
    headingRef.current?.focus();
  };

  const errors = kycErrors(choices.kyc);
  const canContinue =
    (step === 'device' && !!device) ||
    (step === 'plan' && !!plan) ||
    step === 'schedule' ||
    step === 'kyc' ||
    (step === 'payment' && !!payment);

  const next = (event?: FormEvent) => {
    event?.preventDefault();
    if (step === 'kyc' && Object.keys(errors).length) {
      setShowErrors(true);
      return;
    }
    if (step === 'payment' && !payment) {
      if (!pay.isPending) pay.mutate();
      return;
    }
    if (canContinue && stepIndex < DEMO_STEPS.length - 1) go(stepIndex + 1);
  };

  const restart = () => {
    setChoices(START);
    setPayment(null);
    pay.reset();
    go(0);
  };

  const choose = (change: Partial<Choices>) => {
    // A new device or plan is a new simulation: the old receipt does not belong to it.
    setPayment(null);
    setChoices((current) => ({ ...current, ...change }));
  };

  return (
    <div className="grid grid-cols-1 gap-4">
      <StepProgress current={stepIndex} />
      <Card>
        <CardContent className="p-4 sm:p-6">
          <form onSubmit={next} noValidate className="grid grid-cols-1 gap-4" data-testid={`step-${step}`}>
            <div>
              <h2
                id={headingId}
                ref={headingRef}
                tabIndex={-1}
                className="font-semibold text-xl outline-none"
                data-testid="text-step-heading"
              >
                {texts.heading}
              </h2>
              {texts.help && <p className="mt-1 text-muted-foreground text-sm">{texts.help}</p>}
            </div>

            {step === 'device' && (
              <DeviceChoices
                devices={content.devices}
                currency={currency}
                selected={choices.deviceId}
                onSelect={(deviceId) => choose({ deviceId })}
                labelledBy={headingId}
              />
            )}
            {step === 'plan' && device && (
              <PlanChoices
                plans={content.plans}
                device={device}
                currency={currency}
                selected={choices.planId}
                onSelect={(planId) => choose({ planId })}
                labelledBy={headingId}
              />
            )}
            {step === 'schedule' && device && plan && (
              <ScheduleStep device={device} plan={plan} currency={currency} />
            )}
            {step === 'kyc' && (
              <KycStep
                kyc={choices.kyc}
                onChange={(kyc) => setChoices((current) => ({ ...current, kyc }))}
                errors={showErrors ? errors : {}}
                note={content.texts.kycNote}
              />
            )}
            {step === 'payment' && device && plan && (
              <>
                <PaymentStep
                  deposit={demoDeposit(device, plan)}
                  currency={currency}
                  payment={payment}
                  phone={choices.kyc.phone}
                />
                <FormAlert message={pay.isError ? errorMessage(pay.error) : null} />
              </>
            )}
            {step === 'unlock' && payment && (
              <UnlockStep payment={payment} phone={choices.kyc.phone} closing={content.texts.closing} />
            )}

            <div className="flex flex-wrap items-center justify-between gap-2 border-t pt-4">
              {stepIndex > 0 ? (
                <Button
                  type="button"
                  variant="outline"
                  onClick={() => go(stepIndex - 1)}
                  data-testid="button-demo-back"
                >
                  <ArrowLeft aria-hidden="true" />
                  Back
                </Button>
              ) : (
                <span />
              )}
              {step === 'unlock' ? (
                <Button type="button" onClick={restart} data-testid="button-demo-restart">
                  <RotateCcw aria-hidden="true" />
                  Start again
                </Button>
              ) : step === 'payment' && !payment ? (
                <Button type="submit" disabled={pay.isPending} data-testid="button-demo-pay">
                  {pay.isPending ? <Spinner /> : <Wallet aria-hidden="true" />}
                  Pay deposit (simulated)
                </Button>
              ) : (
                <Button type="submit" disabled={!canContinue} data-testid="button-demo-next">
                  {step === 'payment' ? 'See the unlock code' : 'Next'}
                  <ArrowRight aria-hidden="true" />
                </Button>
              )}
            </div>
          </form>
        </CardContent>
      </Card>
      {stepIndex > 0 && step !== 'unlock' && (
        <p className="text-center">
          <Button
            type="button"
            variant="link"
            size="sm"
            onClick={restart}
            data-testid="link-demo-start-again"
          >
            Start again
          </Button>
        </p>
      )}
    </div>
  );
}
