import PgBoss from 'pg-boss';
import type { z } from 'zod';
import type { JobTrigger } from '../../contracts/jobs';
import type { Database } from '../../db/client';
import type { AppContext } from '../context';
import { organisation } from '../organisation';
import type { JobCounts, JobDefinition } from './definition';
import { lastCompletedKey, recordFinish, recordStart } from './runs';
import { assertCron, latestSlot, slotJobId } from './slots';

/** What a queue job carries: the job's own payload and why it was sent. */
interface Envelope {
  payload: unknown;
  trigger: JobTrigger;
  slot?: string;
}

export interface JobQueueOptions {
  /** How often each instance checks cron slots and changed keys. */
  tickSeconds?: number;
  /** How often each worker asks for a job when idle (a send on the same instance wakes it at once). */
  pollingSeconds?: number;
  /** How often expired runs (an instance that died) are failed into retries, on one instance at a time. */
  maintenanceSeconds?: number;
}

/** A cron slot that no instance sent within this long after its time is skipped, not caught up. */
const SLOT_WINDOW_MS = 5 * 60_000;

/**
 * The background job queue (decision 009): pg-boss on the app's database, one queue and one worker
 * per registered job on every instance, so a job runs on whichever instance fetches it first. Every
 * instance also ticks the schedules; slots and changed keys are sent so that duplicates collapse.
 */
export class JobQueue {
  private boss: PgBoss | null = null;
  private starting: Promise<void> | null = null;
  private readonly workers = new Map<string, string>();
  private readonly sentSlots = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private readonly options: Required<JobQueueOptions>;

  constructor(
    private readonly ctx: AppContext,
    readonly definitions: readonly JobDefinition[],
    options: JobQueueOptions = {},
  ) {
    const names = new Set<string>();
    for (const definition of definitions) {
      if (names.has(definition.name)) throw new Error(`Job ${definition.name} is declared twice`);
      names.add(definition.name);
      if (definition.schedule && 'cron' in definition.schedule) assertCron(definition.schedule.cron);
      if (definition.schedule && 'whenChanged' in definition.schedule && !definition.singletonKey)
        throw new Error(`Job ${definition.name} is kept current by a key, so it needs a singleton key`);
    }
    this.options = { tickSeconds: 30, pollingSeconds: 2, maintenanceSeconds: 60, ...options };
  }

  get running(): boolean {
    return this.boss !== null;
  }

  /** Installs or upgrades pg-boss's schema, creates the queues, starts the workers and the ticks. */
  start(): Promise<void> {
    this.starting ??= this.open();
    return this.starting;
  }

  private async open(): Promise<void> {
    const boss = new PgBoss({
      ...this.ctx.database.jobQueue,
      application_name: 'devicefin-jobs',
      max: 3,
      schedule: false,
      supervise: true,
      migrate: true,
      maintenanceIntervalSeconds: this.options.maintenanceSeconds,
    });
    boss.on('error', (error) => this.ctx.log.error({ err: error }, 'job queue error'));
    await boss.start();
    await createQueues(boss, this.definitions);
    for (const definition of this.definitions) {
      const worker = await boss.work<Envelope>(
        definition.name,
        { pollingIntervalSeconds: this.options.pollingSeconds, includeMetadata: true },
        async ([job]) => (job ? this.execute(definition, job) : undefined),
      );
      this.workers.set(definition.name, worker);
    }
    this.boss = boss;
    this.timer = setInterval(() => void this.tick(), this.options.tickSeconds * 1000);
    this.timer.unref();
  }

  /** Lets running jobs finish (up to 10 s; then they are failed into retries) and stops. */
  async stop(): Promise<void> {
    // A stop during start (a signal at start-up) waits for it, so nothing is left running.
    await this.starting?.catch(() => undefined);
    this.starting = null;
    clearInterval(this.timer);
    const boss = this.boss;
    this.boss = null;
    this.workers.clear();
    if (boss) await boss.stop({ graceful: true, timeout: 10_000, wait: true });
  }

  /**
   * Queues a run. Returns the queue job's id, or null when it collapsed into one already queued
   * (same singleton key, or the same slot).
   */
  async send<P extends z.ZodType>(
    definition: JobDefinition<P>,
    payload: z.input<P>,
    trigger: JobTrigger = 'demand',
    slot?: Date,
  ): Promise<string | null> {
    const boss = this.boss;
    if (!boss) throw new Error('The job queue is not running');
    const parsed = definition.payload.parse(payload) as z.output<P>;
    const { singletonKey } = definition;
    const envelope: Envelope = { payload: parsed, trigger, ...(slot ? { slot: slot.toISOString() } : {}) };
    const id = await boss.send(definition.name, envelope, {
      ...(singletonKey
        ? { singletonKey: typeof singletonKey === 'string' ? singletonKey : singletonKey(parsed) }
        : {}),
      ...(slot ? { id: slotJobId(definition.name, slot) } : {}),
    });
    const worker = this.workers.get(definition.name);
    if (id && worker) boss.notifyWorker(worker);
    return id;
  }

  /** Sends every job kept current by a key: at start, whatever the keys. */
  async sendKeptCurrent(trigger: JobTrigger): Promise<void> {
    for (const definition of this.definitions) {
      if (definition.schedule && 'whenChanged' in definition.schedule)
        await this.send(definition, {}, trigger);
    }
  }

  /**
   * One scheduler pass on this instance: sends each cron job's latest slot (once per instance; the
   * slot's fixed id makes it once overall) and each kept-current job whose key moved since its last
   * completed run. Failures are logged; the next tick tries again.
   */
  async tick(): Promise<void> {
    if (!this.boss) return;
    try {
      const now = this.ctx.clock.now();
      const { timeZone } = await organisation(this.ctx, this.ctx.db);
      for (const definition of this.definitions) {
        const { schedule } = definition;
        if (!schedule) continue;
        if ('cron' in schedule) {
          const slot = latestSlot(schedule.cron, timeZone, now);
          const time = slot.getTime();
          if (now.getTime() - time > SLOT_WINDOW_MS || this.sentSlots.get(definition.name) === time) continue;
          await this.send(definition, {}, 'schedule', slot);
          this.sentSlots.set(definition.name, time);
        } else if (await this.outdated(definition, schedule.whenChanged)) {
          await this.send(definition, {}, 'changed');
        }
      }
    } catch (error) {
      this.ctx.log.error({ err: error }, 'job schedule tick failed');
    }
  }

  /**
   * Whether a kept-current job's key moved since its last completed run. While one is queued or
   * running it is not sent again: that run records the key it saw, and the next tick compares.
   */
  private async outdated(
    definition: JobDefinition,
    key: (ctx: AppContext) => Promise<string>,
  ): Promise<boolean> {
    const boss = this.boss;
    if (!boss || (await boss.getQueueSize(definition.name, { before: 'completed' })) > 0) return false;
    return (await key(this.ctx)) !== (await lastCompletedKey(this.ctx.db, definition.name));
  }

  /** One attempt: recorded as it starts and as it ends; a thrown error fails it into a retry. */
  private async execute(
    definition: JobDefinition,
    job: PgBoss.JobWithMetadata<Envelope>,
  ): Promise<JobCounts> {
    const { ctx } = this;
    const { payload, trigger, slot } = job.data;
    const key =
      definition.schedule && 'whenChanged' in definition.schedule
        ? await definition.schedule.whenChanged(ctx)
        : null;
    const runId = await recordStart(ctx.db, ctx.clock, {
      job: definition.name,
      queueJobId: job.id,
      trigger,
      slot: slot ? new Date(slot) : null,
      key,
      attempt: job.retryCount + 1,
    });
    try {
      const counts = await definition.run(ctx, definition.payload.parse(payload));
      await recordFinish(ctx.db, ctx.clock, runId, { counts });
      return counts;
    } catch (error) {
      await recordFinish(ctx.db, ctx.clock, runId, {
        error: error instanceof Error ? error.message : String(error),
      });
      ctx.log.error({ err: error, job: definition.name }, 'job failed');
      throw error;
    }
  }
}

/** The pg-boss queue of each job, created or brought up to its declaration. */
async function createQueues(boss: PgBoss, definitions: readonly JobDefinition[]): Promise<void> {
  for (const definition of definitions) {
    const queue = {
      name: definition.name,
      policy: definition.singletonKey ? ('stately' as const) : ('standard' as const),
      retryLimit: definition.retry.limit,
      retryDelay: definition.retry.delaySeconds,
      retryBackoff: definition.retry.backoff,
      expireInSeconds: definition.expireInSeconds,
    };
    await createQueueRacing(boss, queue);
    // createQueue keeps an existing queue as it is: apply the declaration as it is now.
    await boss.updateQueue(definition.name, queue);
  }
}

/**
 * Installs pg-boss's schema and the jobs' queues without starting anything: the PGlite templates
 * (build and tests) carry them, so a first start skips 2-3 s of DDL on the embedded database.
 */
export async function prepareJobQueue(
  database: Database,
  definitions: readonly JobDefinition[],
): Promise<void> {
  const boss = new PgBoss({ ...database.jobQueue, max: 1, schedule: false, supervise: false, migrate: true });
  await boss.start();
  await createQueues(boss, definitions);
  await boss.stop({ graceful: false, close: true });
}

/**
 * Creates a queue, or finds it there. pg-boss 10's create_queue attaches a partition unlocked, so
 * instances starting together can deadlock on it: PostgreSQL aborts one, which tries again and
 * then finds the queue made.
 */
async function createQueueRacing(boss: PgBoss, queue: PgBoss.Queue): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await boss.createQueue(queue.name, queue);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '40P01' || attempt >= 5) throw error;
    }
  }
}
