import { z } from 'zod';

const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
    .optional()
    .transform((value) => (value === undefined ? fallback : ['true', '1', 'yes'].includes(value)));

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** Every setting comes from the environment (API.md "Running"); `.env.example` lists them. */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .optional()
    .transform((value) => (value?.trim() ? value.trim() : undefined)),
  DATABASE_POOL_SIZE: positiveInt(10),
  DATA_DIR: z.string().default('./data'),
  DEMO_DATA: flag(true),
  /**
   * Background jobs on this instance: the queue's workers and its schedules (decision 009). Off,
   * the instance answers requests only and another instance runs the jobs; the close-of-business
   * bench runs so, or the scheduled close would run beside the one it times.
   */
  JOBS: flag(true),
  /** Key for signing CSRF tokens and encrypting secrets at rest. Generated into DATA_DIR when unset. */
  APP_SECRET: z
    .string()
    .optional()
    .refine((value) => value === undefined || value.length >= 32, 'must be at least 32 characters'),
  /** Public address of the app, used in invite links. Defaults to the request's own host. */
  PUBLIC_URL: z.url().optional(),
  /** Trust X-Forwarded-* from a reverse proxy (needed for the client address and HTTPS detection). */
  TRUST_PROXY: flag(false),
  SESSION_IDLE_MINUTES: positiveInt(120),
  SESSION_ABSOLUTE_HOURS: positiveInt(12),
  /** Requests per minute one address may make to the public calculator quote. */
  CALCULATOR_RATE_LIMIT_PER_MINUTE: positiveInt(600),
  /**
   * Optional OpenAI-compatible chat endpoint (e.g. https://api.openai.com/v1) that maps free text
   * the assistant's own parser does not understand to the same intents. It never supplies numbers.
   */
  AI_BASE_URL: z.url().optional(),
  AI_API_KEY: z.string().optional(),
  AI_MODEL: z.string().default('gpt-4o-mini'),
  AI_TIMEOUT_MS: positiveInt(8000),
  /**
   * Lets an administrator move the business date forward (API.md "Business date"): for test,
   * training and demo instances only. Off, `PUT /api/business-date` is refused.
   */
  BUSINESS_DATE_CONTROL: flag(false),
  /**
   * The auto-debit simulator's share of failed debits, 0 to 1 (decision 021): decided by a hash of
   * each attempt's reference, so the same attempt fails or succeeds the same way on every run.
   */
  AUTO_DEBIT_FAILURE_RATE: z.coerce.number().min(0).max(1).default(0.1),
  /**
   * M-Pesa (Daraja style) callbacks (API.md "Contracts and payments"): the `token` query parameter
   * of the URLs registered with the provider. Unset, every callback is refused (401) unless its
   * caller's address is in MPESA_ALLOWED_IPS.
   */
  MPESA_CALLBACK_TOKEN: z
    .string()
    .optional()
    .transform((value) => (value?.trim() ? value.trim() : undefined)),
  /** Comma-separated caller addresses whose callbacks are accepted without the token. */
  MPESA_ALLOWED_IPS: z
    .string()
    .optional()
    .transform((value) =>
      (value ?? '')
        .split(',')
        .map((ip) => ip.trim())
        .filter(Boolean),
    ),
  /** Callbacks one address may send per minute (a paybill's busy hour stays well under it). */
  MPESA_WEBHOOK_RATE_LIMIT_PER_MINUTE: positiveInt(6000),
  /** Who carries STK pushes: the built-in simulator (default) or a Daraja API at MPESA_BASE_URL. */
  MPESA_PROVIDER: z.enum(['simulator', 'daraja']).default('simulator'),
  /** The simulator's answer to every push, and how long after the request it calls back. */
  MPESA_SIMULATOR_OUTCOME: z.enum(['success', 'failure']).default('success'),
  MPESA_SIMULATOR_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(1500),
  MPESA_BASE_URL: z.url().default('https://sandbox.safaricom.co.ke'),
  MPESA_CONSUMER_KEY: z.string().optional(),
  MPESA_CONSUMER_SECRET: z.string().optional(),
  /** The paybill (BusinessShortCode / PartyB) and its Lipa na M-Pesa passkey. */
  MPESA_SHORTCODE: z.string().optional(),
  MPESA_PASSKEY: z.string().optional(),
  /** Public address the provider calls back (defaults to PUBLIC_URL); the token is added to it. */
  MPESA_CALLBACK_BASE_URL: z.url().optional(),
  MPESA_TIMEOUT_MS: positiveInt(10_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = z.infer<typeof envSchema>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => `  ${issue.path.join('.')}: ${issue.message}`)
      .join('\n');
    throw new Error(`Invalid configuration:\n${problems}`);
  }
  return parsed.data;
}
