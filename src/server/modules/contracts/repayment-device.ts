import { type IssuedToken, MAX_TOKEN_DAYS } from '../../../contracts/devices';
import { addDays, type DelinquencySnapshot, daysBetween, maxTokenDays, sumComponents } from '../../../domain';
import type { Actor } from '../../audit';
import type { TxContext } from '../../context';
import {
  type DeviceControl,
  deviceControlOf,
  extendDeviceAccess,
  queueDeviceCommand,
} from '../devices/commands';
import { issueTokenInTransaction, recordUseGiven } from '../devices/tokens';
import { queueMessage } from '../messages/outbox';
import type { ContractRow } from './lifecycle';
import type { RepaymentState } from './repayment';

/** What the device was told because of a payment, shown on the receipt and the contract. */
export interface DeviceEffect {
  token: { token: string; type: string; days: number | null } | null;
  command: { id: string; kind: 'unlock' | 'release' } | null;
  activeUntil: string | null;
}

const NONE: DeviceEffect = { token: null, command: null, activeUntil: null };

/**
 * The device's answer to a payment (PRODUCT.md, Payment and Device control):
 * - paid off: OpenPAYGO units get DISABLE_PAYG (theirs for good), lock-API units a release command;
 * - OpenPAYGO: an ADD_TIME token for the days the payment bought (days × the unit's time divider
 *   in the token, as the official library computes it). The unit runs one period
 *   ahead of the paid-through date (activation gave it the first period), so it may run until
 *   paid-through + the first period; a unit whose time ran out counts from today;
 * - lock API: an unlock command in the command log when the payment clears the arrears and the
 *   unit is locked or a lock is on its way; delivery is the device control job's.
 * A reversal never takes time back from an OpenPAYGO unit (a token cannot be withdrawn); the
 * close of business locks it when arrears come back.
 */
export async function deviceAfterRepayment(
  ctx: TxContext,
  actor: Actor,
  state: RepaymentState,
  before: DelinquencySnapshot,
  after: DelinquencySnapshot,
  status: ContractRow['status'],
  source: { type: string; id: string },
): Promise<DeviceEffect> {
  const { row } = state;
  const device = state.device ?? (await deviceControlOf(ctx.tx, row.deviceId));
  if (device.controlKind === 'none') return NONE;
  if (status === 'paid_off') {
    if (row.status === 'paid_off') return NONE;
    if (device.controlKind === 'openpaygo') {
      const issued = await issueTokenInTransaction(
        ctx,
        device.id,
        { type: 'DISABLE_PAYG' },
        actor.id,
        row.id,
      );
      await tokenMessage(ctx, actor, row, issued, 'unlocks the device for good', source);
      await recordUseGiven(ctx, device.id, issued);
      return {
        token: { token: issued.token, type: issued.type, days: null },
        command: null,
        activeUntil: null,
      };
    }
    const id = await queueDeviceCommand(ctx, actor, {
      deviceId: device.id,
      contractId: row.id,
      kind: 'release',
      reason: `${row.number} paid off`,
      source,
    });
    return { token: null, command: { id, kind: 'release' }, activeUntil: null };
  }
  const { days, until } = accessBought(state, after, device);
  let effect: DeviceEffect = { ...NONE, activeUntil: device.activeUntil };
  if (until) {
    await extendDeviceAccess(ctx, [{ deviceId: device.id, activeUntil: until }]);
    effect = { ...effect, activeUntil: until };
    if (device.controlKind === 'openpaygo') {
      const issued = await issueTokenInTransaction(
        ctx,
        device.id,
        { type: 'ADD_TIME', days },
        actor.id,
        row.id,
      );
      await tokenMessage(ctx, actor, row, issued, `${days} day${days === 1 ? '' : 's'} of use`, source);
      effect = { ...effect, token: { token: issued.token, type: issued.type, days } };
    }
  }
  if (unlockDue(device, before, after)) {
    const id = await queueDeviceCommand(ctx, actor, {
      deviceId: device.id,
      contractId: row.id,
      kind: 'unlock',
      reason: `Arrears on ${row.number} cleared by payment`,
      source,
    });
    effect = { ...effect, command: { id, kind: 'unlock' } };
  }
  return effect;
}

/**
 * The days of use a payment that leaves the contract at `after` buys the unit, and the unit's new
 * end of access (null when it buys none): the unit runs one period ahead of the paid-through
 * date (activation gave it the first period); a unit whose time ran out counts from today.
 */
export function accessBought(
  state: Pick<RepaymentState, 'row' | 'today'>,
  after: DelinquencySnapshot,
  device: DeviceControl,
): { days: number; until: string | null } {
  const period = Math.max(1, daysBetween(state.row.startDate, state.row.firstDueDate));
  const target = addDays(after.paidThrough, period);
  const from = device.activeUntil && device.activeUntil > state.today ? device.activeUntil : state.today;
  // One token carries at most 995 / divider days on a unit with a time divider (decision 029).
  const most = device.controlKind === 'openpaygo' ? maxTokenDays(device.timeDivider) : MAX_TOKEN_DAYS;
  const days = Math.min(most, daysBetween(from, target));
  return days > 0 ? { days, until: addDays(from, days) } : { days: 0, until: null };
}

/** Whether a payment from `before` to `after` must unlock the lock-API unit: it cleared the arrears of a unit locked or being locked. */
export function unlockDue(
  device: DeviceControl,
  before: DelinquencySnapshot,
  after: DelinquencySnapshot,
): boolean {
  const clearedArrears = sumComponents(before.overdue) > 0 && sumComponents(after.overdue) === 0;
  return (
    device.controlKind === 'lock_api' &&
    clearedArrears &&
    (device.lockState !== 'unlocked' || device.lockPending)
  );
}

/** The token goes to the customer by message, queued in the payment's transaction (decision 027). */
async function tokenMessage(
  ctx: TxContext,
  actor: Actor,
  row: RepaymentState['row'],
  issued: IssuedToken,
  description: string,
  source: { type: string; id: string },
): Promise<void> {
  await queueMessage(ctx, actor, {
    customerId: row.customerId,
    contractId: row.id,
    template: 'token',
    variables: { contractNumber: row.number, token: issued.token, tokenDescription: description },
    source,
    dedupeKey: `token:${issued.id}`,
  });
}
