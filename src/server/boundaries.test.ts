import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Module boundaries (docs/architecture.md "Areas and their tables"): an area writes only its own
 * tables and reads other areas through the functions they export. Checked here on the imports:
 * server code may import from `db/schema` only the tables of its own area (a type-only import, for
 * a row's shape, is free). What does not hold yet is listed below with the reason.
 */

const SERVER = path.resolve(__dirname);
const SCHEMA = path.resolve(__dirname, '../db/schema');

/** Which areas own each schema file's tables: module folders (`modules/x`) or platform files. */
const OWNERS: Record<string, readonly string[]> = {
  'activity.ts': ['modules/activity'],
  'audit.ts': ['audit.ts', 'modules/audit'],
  // Staff identity: sign-in, the staff list, one's own profile, and the session store.
  'auth.ts': ['modules/auth', 'modules/users', 'modules/profile', 'sessions.ts'],
  'close-of-business.ts': ['modules/close-of-business'],
  'collections.ts': ['modules/collections'],
  'contracts.ts': ['modules/contracts'],
  'customers.ts': ['modules/customers'],
  'devices.ts': ['modules/devices'],
  // Device control: command attempts and provider settings (modules/devices/control/).
  'device-control.ts': ['modules/devices'],
  'device-metrics.ts': ['modules/devices'],
  // Claims of Idempotency-Keys, for every operation that takes one.
  'idempotency.ts': ['idempotency.ts'],
  'jobs.ts': ['jobs'],
  'ledger.ts': ['modules/ledger'],
  'messages.ts': ['modules/messages'],
  'notifications.ts': ['modules/notifications'],
  'payments.ts': ['modules/payments'],
  'plans.ts': ['modules/plans'],
  'recoveries.ts': ['modules/recoveries'],
};

/** preferences.ts holds three areas' tables. */
const TABLE_OWNERS: Record<string, readonly string[]> = {
  userPreferences: ['modules/settings'],
  tutorialProgress: ['modules/help'],
  organisationSettings: ['organisation.ts'],
  // communications.ts: the outbox's settings and bulk sends, the threads (the customer-service
  // assistant is the threads' own voice: it writes their pending question), staff tasks.
  messagingSettings: ['modules/messages'],
  segments: ['modules/messages'],
  bulkSends: ['modules/messages'],
  conversations: ['modules/conversations', 'modules/customer-service'],
  conversationMessages: ['modules/conversations', 'modules/customer-service'],
  staffTasks: ['modules/tasks'],
  // portals.ts (issue 16): sign-in codes and sessions of customers and investors, the demo's content.
  portalOtps: ['modules/portal'],
  guestSessions: ['guest-sessions.ts', 'modules/portal', 'modules/investor'],
  investorCodes: ['modules/investor', 'guest-sessions.ts'],
  demoVersions: ['modules/demo-content'],
  demoImages: ['modules/demo-content'],
  // investor-figures.ts (issue 16): written by the close's snapshot step, read by the investor portal.
  investorFigures: ['modules/close-of-business', 'modules/investor'],
};

/** Reads across areas that stay for now, each with its reason. Key: `file: table`. */
const KNOWN_EXCEPTIONS: Record<string, string> = {
  // Lists join their parties' columns to search and sort in one statement (issue 11 §3 owns lists).
  'modules/contracts/list.ts: customers': 'the contracts list searches and sorts by customer name',
  'modules/contracts/list.ts: deviceModels': 'the contracts list shows the device model',
  'modules/contracts/list.ts: devices': 'the contracts list shows the device serial',
  'modules/contracts/list.ts: servicePlans': 'the contracts list shows the plan',
  'modules/customers/list.ts: users': 'the customers list shows the assigned agent’s name',
  // The contract page and the draft's parties are read in one statement (decision 008).
  'modules/contracts/detail.ts: customers': 'contract page in one statement (decision 008)',
  'modules/contracts/detail.ts: deviceModels': 'contract page in one statement (decision 008)',
  'modules/contracts/detail.ts: devices': 'contract page in one statement (decision 008)',
  'modules/contracts/detail.ts: servicePlans': 'contract page in one statement (decision 008)',
  'modules/contracts/detail.ts: payments': 'contract page in one statement (decision 008)',
  'modules/contracts/detail.ts: deviceTokens': 'contract page in one statement (decision 008)',
  'modules/contracts/detail.ts: users': 'contract page in one statement (decision 008)',
  'modules/contracts/parties.ts: customers':
    'a draft reads its parties in one prepared statement (decision 008)',
  'modules/contracts/parties.ts: deviceModels':
    'a draft reads its parties in one prepared statement (decision 008)',
  'modules/contracts/parties.ts: devices':
    'a draft reads its parties in one prepared statement (decision 008)',
  'modules/contracts/parties.ts: servicePlans':
    'a draft reads its parties in one prepared statement (decision 008)',
  'modules/contracts/portfolio.ts: customers': 'the assistant’s portfolio is read set-based in one statement',
  'modules/contracts/portfolio.ts: devices': 'the assistant’s portfolio is read set-based in one statement',
  'modules/contracts/references.ts: devices':
    'a payer’s reference (statement line, mobile money BillRefNumber) names a contract by its unit’s serial',
  'modules/contracts/references.ts: customers':
    'a payer’s reference (statement line, mobile money BillRefNumber) names a contract by its customer’s phone or account',
  'modules/contracts/push-target.ts: customers': 'an STK push asks the contract’s customer’s phone',
  'modules/plans/service.ts: contracts': 'a plan in use by contracts cannot be retired: one EXISTS check',
  'modules/plans/service.ts: deviceModels': 'a plan names the device models it finances: joined for names',
  // Names of staff shown beside records: a users read-model for display is not built yet.
  'modules/customers/kyc.ts: users': 'reviewer names on KYC documents',
  'modules/customers/service.ts: users': 'staff names on the customer page',
  'modules/customers/service.ts: auditLog': 'the customer page shows its audit history',
  'modules/devices/service.ts: users': 'staff names in the device history',
  'modules/devices/tokens.ts: users': 'staff names on issued tokens',
  'modules/devices/control/read.ts: users': 'who asked for a device command, in the command log',
  'modules/notifications/service.ts: users': 'recipients by role and permission',
  'modules/notifications/service.ts: userPreferences': 'recipients’ notification opt-outs',
  'demo/portfolio.ts: users': 'the demo picks its staff actors',
  'modules/close-of-business/read.ts: users': 'who asked for a close of business, in its run list',
  // The portfolio snapshot is computed as of a date in one set-based statement (decision 026).
  'modules/close-of-business/snapshot.ts: contracts': 'portfolio snapshot in one statement (decision 026)',
  'modules/close-of-business/snapshot.ts: contractInstallments':
    'portfolio snapshot in one statement (decision 026)',
  'modules/close-of-business/snapshot.ts: payments': 'portfolio snapshot in one statement (decision 026)',
  'modules/close-of-business/snapshot.ts: paymentAllocations':
    'portfolio snapshot in one statement (decision 026)',
  'modules/close-of-business/snapshot.ts: devices': 'portfolio snapshot in one statement (decision 026)',
  'modules/investor/codes.ts: users': 'who issued and who revoked an investor code, in the codes list',
  'modules/close-of-business/snapshot.ts: customers':
    'the investor figures group the snapshot’s contracts by their customers’ tags (funds), in its statement',
  // A payment is shown with its contract number, customer name and poster in one statement.
  'modules/payments/read.ts: contracts': 'payments list and receipt in one statement',
  'modules/payments/read.ts: customers': 'payments list and receipt in one statement',
  'modules/payments/read.ts: users': 'payments list and receipt in one statement',
  'modules/payments/list.ts: contracts': 'its cached pages show contract numbers: evicted by them',
  'modules/payments/list.ts: customers': 'its cached pages show customers’ names: evicted by them',
  'modules/payments/list.ts: users': 'its cached pages show who posted: evicted by them',
  'modules/payments/imports.ts: users': 'the name of who uploaded a statement import, in its list',
  'modules/payments/read.ts: contractEvents': 'the token a payment bought is on its timeline line',
  // Mandates and attempts are shown with their contract number and customer name in one statement.
  'modules/payments/auto-debit/read.ts: contracts':
    'mandates and attempts with their contract in one statement',
  'modules/payments/auto-debit/read.ts: customers':
    'mandates and attempts with their customer in one statement',
  'modules/payments/auto-debit/read.ts: users': 'who recorded a mandate, in the same statement',
  // The outbox list shows each message with its customer's name and contract's number.
  'modules/messages/list.ts: customers': 'outbox list and contract card in one statement',
  'modules/messages/list.ts: contracts': 'outbox list and contract card in one statement',
  // Collections: the queue is scored and shown set-based in one statement each (decision 030).
  'modules/collections/refresh.ts: contracts':
    'the queue is scored set-based in one statement (decision 030)',
  'modules/collections/refresh.ts: customers':
    'region, agent and risk grade of every case, in the scoring statement',
  'modules/collections/list.ts: contracts': 'the queue shows and searches the contract number',
  'modules/collections/list.ts: customers': 'the queue shows and searches the customer',
  'modules/collections/list.ts: servicePlans': 'the queue shows the plan',
  'modules/collections/list.ts: users': 'the queue shows the collector’s name',
  'modules/collections/read.ts: contracts': 'actions and promises shown with their contract number',
  'modules/collections/read.ts: customers': 'promises shown with their customer’s name',
  'modules/collections/read.ts: users': 'staff names on actions, promises and performance',
  'modules/collections/read.ts: servicePlans': 'the queue’s plan filter names the plans of its cases',
  'modules/collections/read.ts: payments':
    'performance: the amount paid on each collector’s cases, one statement',
  'modules/collections/promises.ts: payments':
    'close of business step 5 checks every promise due against its payments in one statement',
  'modules/collections/promises.ts: contracts': 'the collector’s notice names the contract number',
  'modules/collections/assign.ts: users':
    'round-robin deals cases to active staff only, in one statement per region',
  // Communications (issue 15): reads of the parties a thread, a task or a message is about.
  'modules/conversations/pipeline.ts: customers':
    'an inbound message finds the customer whose phone wrote, inside the thread’s insert',
  'modules/conversations/threads.ts: customers': 'the threads list shows and searches the customer’s name',
  'modules/conversations/threads.ts: messages': 'a thread shows each outbound line’s delivery state',
  'modules/conversations/threads.ts: staffTasks': 'the threads list counts each thread’s open tasks',
  'modules/conversations/threads.ts: users': 'a thread shows who wrote each staff line',
  'modules/conversations/whatsapp-test.ts: messages':
    'the WhatsApp test page shows the outbound payloads its message queued',
  'modules/customer-service/data.ts: customers':
    'the assistant answers from the customer’s own record, read in one place (the portal reuses it)',
  'modules/customer-service/data.ts: contracts': 'the assistant answers from the customer’s own contracts',
  'modules/customer-service/data.ts: contractFigures':
    'the assistant answers the customer’s balance and arrears',
  'modules/customer-service/data.ts: contractInstallments':
    'the assistant answers next due and payoff from the schedule',
  'modules/customer-service/data.ts: payments': 'the assistant answers the customer’s payment history',
  'modules/customer-service/data.ts: devices': 'the assistant names the customer’s device',
  'modules/customer-service/data.ts: deviceModels': 'the assistant names the customer’s device',
  // A segment, a bulk send and a template preview render every recipient's figures in one
  // statement (issue 15 budget: 100,000 queued within 10 s), like the close's reminders.
  'modules/messages/segments.ts: customers': 'a segment is a filter over customers, counted in one statement',
  'modules/messages/segments.ts: contracts':
    'a segment filters by bucket, DPD, plan and agent of live contracts',
  'modules/messages/segments.ts: devices': 'a segment filters by product (the contract’s unit)',
  'modules/messages/segments.ts: deviceModels': 'a segment filters by product (the unit’s model)',
  'modules/messages/bulk-send.ts: customers':
    'a bulk send counts its recipients and exclusions in one statement',
  'modules/messages/preview.ts: customers': 'recipients’ names, phones and languages, rendered set-based',
  'modules/messages/preview.ts: contracts': 'recipients’ latest live contract figures, rendered set-based',
  'modules/messages/preview.ts: contractInstallments':
    'recipients’ next due date and amount, rendered set-based',
  'modules/tasks/service.ts: contracts': 'tasks shown with their contract number',
  'modules/tasks/service.ts: customers': 'tasks shown with their customer’s name',
  'modules/tasks/service.ts: users': 'tasks shown with their assignee’s name',
  'modules/collections/collectors.ts: users': 'collectors are the staff whose role works collections',
};

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const full = path.join(directory, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [full] : [];
  });
}

/** Table name → owning areas, from the schema files' exports. */
function tableOwners(): Map<string, readonly string[]> {
  const owners = new Map<string, readonly string[]>();
  for (const file of readdirSync(SCHEMA)) {
    for (const [, table] of readFileSync(path.join(SCHEMA, file), 'utf8').matchAll(
      /export const (\w+) = (?:pgTable|pgSequence)\(/g,
    )) {
      if (!table) continue;
      const owner = TABLE_OWNERS[table] ?? OWNERS[file];
      if (owner) owners.set(table, owner);
    }
  }
  return owners;
}

/** The area of a server file: its module folder, its platform folder, or the file itself. */
function areaOf(relative: string): string {
  const parts = relative.split(path.sep);
  if (parts[0] === 'modules') return `modules/${parts[1]}`;
  return parts.length > 1 ? (parts[0] as string) : relative;
}

/** Value imports from db/schema: `import { a, type B, c } from '…/db/schema'` (not `import type`). */
function schemaImports(source: string): string[] {
  const names: string[] = [];
  for (const [, list] of source.matchAll(/import\s+\{([^}]*)\}\s+from\s+'(?:\.\.\/)+db\/schema'/g)) {
    for (const item of (list ?? '').split(',')) {
      const name = item.trim();
      if (name && !name.startsWith('type ')) names.push(name.split(/\s+as\s+/)[0] as string);
    }
  }
  return names;
}

describe('module boundaries', () => {
  const owners = tableOwners();

  it('knows the owner of every table', () => {
    expect(owners.size).toBeGreaterThan(20);
    expect(owners.get('payments')).toEqual(['modules/payments']);
  });

  it('lets server code import only its own area’s tables, besides the known exceptions', () => {
    const violations: string[] = [];
    const used = new Set<string>();
    for (const file of sourceFiles(SERVER)) {
      const relative = path.relative(SERVER, file);
      const area = areaOf(relative);
      for (const table of schemaImports(readFileSync(file, 'utf8'))) {
        const tableOwner = owners.get(table);
        if (!tableOwner || tableOwner.includes(area) || tableOwner.includes(relative)) continue;
        const key = `${relative.split(path.sep).join('/')}: ${table}`;
        if (key in KNOWN_EXCEPTIONS) used.add(key);
        else violations.push(`${key} (owned by ${tableOwner.join(', ')})`);
      }
    }
    expect(violations).toEqual([]);
    // An exception fixed is taken off the list, so the list stays the truth.
    expect(Object.keys(KNOWN_EXCEPTIONS).filter((key) => !used.has(key))).toEqual([]);
  });
});
