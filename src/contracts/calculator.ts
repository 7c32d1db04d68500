import { z } from 'zod';
import { FREQUENCIES, INTEREST_METHODS, isBusinessDate, SCHEDULE_LIMITS } from '../domain';
import { endpoint } from './endpoint';
import { MAX_MONEY_INPUT } from './money';

/** A whole number of minor units from a query-string value, with field-specific messages. */
const minorUnits = (field: string, options: { required: boolean }) => {
  const number = z.coerce
    .number<string | number>({ error: `${field} must be a number` })
    .refine(Number.isFinite, `${field} must be a number`)
    .refine(Number.isInteger, `${field} must be a whole number of minor units (e.g. cents)`)
    .refine((value) => value >= 0, `${field} must not be negative`)
    .refine(
      (value) => value <= MAX_MONEY_INPUT,
      `${field} must be at most ${MAX_MONEY_INPUT.toLocaleString('en')} minor units`,
    );
  return options.required
    ? z
        .union([z.string().min(1, `${field} is required`), z.number()], { error: `${field} is required` })
        .pipe(number)
    : number;
};

/** API.md: GET /api/calculator/quote. Money in minor units; APR in percent. */
export const quoteQuery = z
  .strictObject({
    price: minorUnits('price', { required: true }),
    deposit: minorUnits('deposit', { required: false }).default(0),
    apr: z.union([z.string().min(1, 'apr is required'), z.number()], { error: 'apr is required' }).pipe(
      z.coerce
        .number<string | number>({ error: 'apr must be a number' })
        .refine(Number.isFinite, 'apr must be a number')
        .refine(
          (value) => value >= SCHEDULE_LIMITS.minApr && value <= SCHEDULE_LIMITS.maxApr,
          `apr must be between ${SCHEDULE_LIMITS.minApr} and ${SCHEDULE_LIMITS.maxApr}`,
        ),
    ),
    frequency: z.enum(FREQUENCIES as ['daily', 'weekly', 'monthly'], {
      error: 'frequency must be daily, weekly or monthly',
    }),
    term: z.coerce
      .number({ error: 'term must be a number' })
      .refine(Number.isInteger, 'term must be a whole number of instalments')
      .refine(
        (value) => value >= SCHEDULE_LIMITS.minTerm && value <= SCHEDULE_LIMITS.maxTerm,
        `term must be between ${SCHEDULE_LIMITS.minTerm} and ${SCHEDULE_LIMITS.maxTerm}`,
      ),
    interestMethod: z
      .enum(INTEREST_METHODS as ['declining', 'flat'], { error: 'interestMethod must be declining or flat' })
      .default('declining'),
    installmentMultiple: minorUnits('installmentMultiple', { required: false }).default(0),
    serviceFee: minorUnits('serviceFee', { required: false }).default(0),
    startDate: z.string().refine(isBusinessDate, 'startDate must be a date as YYYY-MM-DD').optional(),
  })
  .superRefine((query, context) => {
    if (query.deposit > query.price) {
      context.addIssue({ code: 'custom', path: ['deposit'], message: 'deposit must not exceed price' });
    } else if (query.deposit === query.price) {
      context.addIssue({
        code: 'custom',
        path: ['deposit'],
        message: 'deposit must be less than price: nothing is left to finance',
      });
    }
  });
export type QuoteQuery = z.input<typeof quoteQuery>;

export const quoteRowSchema = z.object({
  n: z.number().int(),
  dueDate: z.string(),
  principal: z.number().int(),
  interest: z.number().int(),
  serviceFee: z.number().int(),
  total: z.number().int(),
  balance: z.number().int(),
});

export const quoteSchema = z.object({
  currency: z.string(),
  principal: z.number().int(),
  installment: z.number().int(),
  totalInterest: z.number().int(),
  totalServiceFees: z.number().int(),
  totalPayable: z.number().int(),
  schedule: z.array(quoteRowSchema),
});
export type Quote = z.infer<typeof quoteSchema>;

/** /api/calculator: the public financing calculator, computed by the finance engine. */
export const calculatorEndpoints = {
  quote: endpoint({
    method: 'GET',
    path: '/api/calculator/quote',
    query: quoteQuery,
    response: quoteSchema,
  }),
};
