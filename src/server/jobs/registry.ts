import { auditCheckpointJob } from '../modules/audit/checkpoint-job';
import { closeOfBusinessJob } from '../modules/close-of-business/job';
import { refreshArrearsJob } from '../modules/contracts/delinquency';
import { rescoreJob } from '../modules/customers/rescore';
import { deliverCommandsJob } from '../modules/devices/control/job';
import { bulkQueueJob } from '../modules/messages/bulk-job';
import { sendMessagesJob } from '../modules/messages/sender';
import { autoDebitJob } from '../modules/payments/auto-debit/job';
import { importPostJob } from '../modules/payments/import-job';
import type { JobDefinition } from './definition';
import { maintainDatabaseJob } from './maintain-database';
import { pruneJobRunsJob } from './prune';

/**
 * Every job type of the app, each declared once beside the code it runs (`defineJob`). The queue
 * creates a queue and a worker for each; the admin view lists them.
 */
export const JOBS: readonly JobDefinition[] = [
  refreshArrearsJob,
  rescoreJob,
  pruneJobRunsJob,
  maintainDatabaseJob,
  auditCheckpointJob,
  autoDebitJob,
  closeOfBusinessJob,
  sendMessagesJob,
  bulkQueueJob,
  deliverCommandsJob,
  importPostJob,
];
