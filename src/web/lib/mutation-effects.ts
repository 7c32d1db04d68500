import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { queryKeys as k } from './query-keys';

/**
 * What each kind of change makes stale, in one place: a mutation names its effect
 * (`invalidate(client, 'contractMoved')`) and this map lists the queries to refetch. When a
 * change touches another area (a contract assigns a device, posts to the ledger), its entry says
 * so here, not in the component that happened to make it.
 */
export const MUTATION_EFFECTS = {
  /** A new draft reserves its device. */
  contractCreated: [k.contracts.all(), k.devices.all()],
  /**
   * Submit, approve, return, deposit, cancel or activate: the lists, the ledger (deposit, sale),
   * and the device the contract reserves, assigns (activation) or releases (cancellation).
   */
  contractMoved: [k.contracts.lists(), k.ledger.all(), k.devices.all()],
  /** A customer created, edited, or a KYC document reviewed. */
  customerSaved: [k.customers.all()],
  /** A unit created or imported: unit lists and the models' unit counts. */
  devicesAdded: [k.devices.all(), k.deviceModels.all()],
  /** A unit edited or moved to another status. */
  deviceChanged: [k.devices.lists()],
  /** A token issued: the unit's count and active-until. */
  deviceTokenIssued: (id: string) => [k.devices.detail(id)],
  /** A model created, edited or retired: model lists and the units that show its name. */
  deviceModelSaved: [k.deviceModels.all(), k.devices.all()],
  /** Device commands queued (manual or bulk): the log, the fleet's backlog and the units' pages. */
  deviceCommandsQueued: [k.deviceControl.commands(), k.deviceControl.fleet(), k.devices.all()],
  /** Device control's provider settings saved. */
  deviceControlSettingsSaved: [k.deviceControl.settings()],
  /** A plan created, edited, activated or retired. */
  planSaved: [k.plans.all()],
  /** Notifications read or cleared. */
  notificationsRead: [k.notifications.all(), k.notifications.unreadCount()],
  /** Password changed (other sessions end) or sessions revoked. */
  sessionsChanged: [k.profile.sessions()],
  twoFactorChanged: [k.profile.twoFactor()],
  /** Organisation settings saved: the option lists they define change with them. */
  organisationSaved: [k.settings.options(), k.settings.publicOrganisation()],
  /**
   * The business date moved forward: every figure of a date rule moves with it (instalments due,
   * days past due, standings, the trial balance's default date, customers' ages).
   */
  businessDateMoved: [
    k.settings.businessDate(),
    k.dashboard.kpis(),
    k.settings.organisation(),
    k.contracts.all(),
    k.devices.all(),
    k.ledger.all(),
    k.customers.all(),
  ],
  preferencesSaved: [k.profile.preferences()],
  invitesChanged: [k.users.invites()],
  tutorialProgress: [k.help.progress()],
  /** A background job run asked for: the runs list. */
  jobQueued: [k.jobs.all()],
  /** A close of business moves arrears, fees, statuses and the business date's last close. */
  businessClosed: [
    k.eod.runs(),
    k.dashboard.kpis(),
    k.settings.businessDate(),
    k.contracts.all(),
    k.devices.all(),
    k.ledger.all(),
    k.collections.queue(),
    k.collections.promises(),
    k.collections.contractCase(),
  ],
  /** A mandate added, paused or resumed: the monitor, the mandates list and its contract's card. */
  mandateChanged: (contractId: string) => [
    k.autoDebit.all(),
    k.autoDebit.mandates(),
    k.autoDebit.contract(contractId),
  ],
  /**
   * A payment posted, or a reversal or transfer requested or decided: payments and receipts, the
   * corrections queue, contract figures (balance, paid-through, credit), the ledger and devices
   * (a payment can unlock one).
   */
  paymentsChanged: [
    k.payments.all(),
    k.payments.corrections(),
    k.contracts.all(),
    k.ledger.all(),
    k.devices.all(),
  ],
  /**
   * A collections action, assignment or collector's settings: the queue, promises, collectors and
   * performance, every contract's case card and the contract pages (the action is on their timeline;
   * an escalation to lock queues a device command).
   */
  collectionsChanged: [
    k.collections.queue(),
    k.collections.promises(),
    k.collections.collectors(),
    k.collections.options(),
    k.collections.performance(),
    k.collections.contractCase(),
    k.contracts.all(),
    k.devices.all(),
  ],
  /**
   * A repossession or write-off asked for or decided: both queues, contracts (a recovery or a
   * write-off closes one, under `all` so its page's card too), the ledger, devices (a recovered
   * unit comes back as returned) and notifications (the approval task).
   */
  recoveryChanged: [
    k.recoveries.repossessions(),
    k.recoveries.writeOffs(),
    k.contracts.all(),
    k.ledger.all(),
    k.devices.all(),
    k.notifications.all(),
  ],
  /** A statement import uploaded, re-mapped, confirmed or discarded: its preview, rows and the list. */
  paymentImportChanged: [k.paymentImports.all()],
  /** A template created, edited, restored or deleted (its versions are under the same key). */
  templatesChanged: [k.messages.templates()],
  /** A segment saved or deleted: the list and the bulk sends that name it. */
  segmentsChanged: [k.messages.segments(), k.messages.bulkSends()],
  /** A bulk send confirmed or cancelled. */
  bulkSendsChanged: [k.messages.bulkSends(), k.messages.outbox()],
  /** A message queued (a single send) or queued again (a retry): the outbox and the contract pages' cards. */
  messagesQueued: [k.messages.outbox(), k.contracts.all(), k.messages.bulkSends()],
} satisfies Record<string, readonly QueryKey[] | ((id: string) => readonly QueryKey[])>;

type Effects = typeof MUTATION_EFFECTS;
type FixedEffect = {
  [E in keyof Effects]: Effects[E] extends readonly QueryKey[] ? E : never;
}[keyof Effects];
type EntityEffect = Exclude<keyof Effects, FixedEffect>;

/** Marks stale (and refetches what is on screen) everything the effect lists. */
export function invalidate(client: QueryClient, effect: FixedEffect): Promise<void>;
export function invalidate(client: QueryClient, effect: EntityEffect, id: string): Promise<void>;
export async function invalidate(client: QueryClient, effect: keyof Effects, id?: string): Promise<void> {
  const entry = MUTATION_EFFECTS[effect];
  const keys = typeof entry === 'function' ? entry(id ?? '') : entry;
  await Promise.all(keys.map((queryKey) => client.invalidateQueries({ queryKey })));
}
