import type { customers, deviceModels, devices, servicePlans } from '../../../db/schema';
import { addDays, buildSchedule, minimumDeposit, planIneligibility, type Schedule } from '../../../domain';
import { businessToday } from '../../business-date';
import type { AppServices, Executor } from '../../context';
import { AppError, type FieldError, fieldError, unprocessable } from '../../errors';
import { organisation } from '../../organisation';
import { planForContract } from '../plans/service';
import { partiesOfQuote } from './parties';

export interface QuoteInput {
  customerId: string;
  deviceId: string;
  planId: string;
  deposit: number;
  term: number;
  startDate?: string | undefined;
}

export interface Quote {
  plan: typeof servicePlans.$inferSelect;
  customer: typeof customers.$inferSelect;
  device: { device: typeof devices.$inferSelect; model: typeof deviceModels.$inferSelect };
  currency: string;
  cashPrice: number;
  deposit: number;
  principal: number;
  minimumDeposit: number;
  startDate: string;
  schedule: Schedule;
}

/**
 * Checks a contract's inputs against the customer, the device and the plan, and builds the
 * schedule with the finance engine. Bad input is a 400 naming the field; a plan rule a 422.
 */
/** Read through `executor`: the draft's transaction, or the database for a preview. */
export async function quoteContract(ctx: AppServices, input: QuoteInput, executor: Executor): Promise<Quote> {
  const [org, [parties]] = await Promise.all([
    organisation(ctx, executor),
    partiesOfQuote(executor).execute({
      customerId: input.customerId,
      deviceId: input.deviceId,
      planId: input.planId,
    }),
  ]);
  const customer = parties?.customer;
  if (!customer) throw fieldError('customerId', 'No such customer');
  if (!parties.device || !parties.model) throw fieldError('deviceId', 'No such device');
  const device = { device: parties.device, model: parties.model };
  const plan = planForContract(parties.plan);
  const { model } = device;
  const ineligible = planIneligibility(plan, {
    category: model.category,
    modelId: model.id,
    modelName: `${model.make} ${model.model}`,
  });
  if (ineligible) throw unprocessable(ineligible, 'NOT_ELIGIBLE');
  const cashPrice = model.retailPrice;
  const least = minimumDeposit(plan, cashPrice);
  const today = businessToday(ctx, org);
  const startDate = input.startDate ?? today;
  const errors: FieldError[] = [];
  if (!plan.allowedTerms.includes(input.term)) {
    errors.push({
      field: 'term',
      message: `Plan ${plan.code} allows ${plan.allowedTerms.join(', ')} instalments`,
    });
  }
  if (input.deposit >= cashPrice) {
    errors.push({ field: 'deposit', message: 'The deposit must be less than the cash price' });
  } else if (input.deposit < least) {
    errors.push({
      field: 'deposit',
      message: `Plan ${plan.code} needs a deposit of at least ${least} (minor units)`,
    });
  }
  if (startDate < addDays(today, -31) || startDate > addDays(today, 90)) {
    errors.push({
      field: 'startDate',
      message: 'The start date must be within 31 days before and 90 days after today',
    });
  }
  if (errors.length) throw new AppError(400, 'VALIDATION', errors.map((e) => e.message).join('; '), errors);
  const principal = cashPrice - input.deposit;
  const schedule = buildSchedule({
    principal,
    apr: plan.apr,
    frequency: plan.frequency,
    term: input.term,
    method: plan.interestMethod,
    startDate,
    installmentMultiple: plan.installmentMultiple,
    serviceFeePerPeriod: plan.serviceFee,
  });
  return {
    plan,
    customer,
    device,
    currency: org.currency,
    cashPrice,
    deposit: input.deposit,
    principal,
    minimumDeposit: least,
    startDate,
    schedule,
  };
}
