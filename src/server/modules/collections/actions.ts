import { eq } from 'drizzle-orm';
import {
  type ActionBody,
  COLLECTION_ACTION_LABELS,
  CONTACT_OUTCOME_LABELS,
  type CollectionActionKind,
  PROMISE_MAX_DAYS,
} from '../../../contracts/collections';
import { ERROR_CODES } from '../../../contracts/errors';
import { collectionActions, collectionCases, collectionPromises } from '../../../db/schema';
import { addDays, formatMoney } from '../../../domain';
import { type Actor, writeAudit } from '../../audit';
import { businessToday } from '../../business-date';
import { tablesChanged } from '../../cache';
import type { TxContext } from '../../context';
import { AppError, conflict, unprocessable } from '../../errors';
import { newId } from '../../ids';
import { organisation } from '../../organisation';
import { addEvent } from '../contracts/events';
import { readFigures } from '../contracts/figures';
import { lockContract } from '../contracts/lifecycle';
import { LIVE_STATUSES } from '../contracts/portfolio';
import { deviceControlOf, queueDeviceCommand } from '../devices/commands';
import { refreshCases } from './refresh';

const fieldRefusal = (field: string, message: string) =>
  new AppError(422, ERROR_CODES.RULE, message, [{ field, message }]);

/**
 * Logs what a collector did on a contract's case (PRODUCT.md §2 "Collections"): the action, a
 * promise to pay (checked by the close of business of its date), a lock queued through the
 * devices area for an escalation to lock. Each appears on the contract's timeline (its event) and
 * the customer's (its audit row is about the customer), and the case is scored again at once.
 * Escalations to repossession and write-off are recorded only: their workflows are their own.
 * Answers the action's id.
 */
export async function logAction(
  ctx: TxContext,
  actor: Actor,
  contractId: string,
  body: ActionBody & { kind: CollectionActionKind },
): Promise<string> {
  const org = await organisation(ctx, ctx.tx);
  const today = businessToday(ctx, org);
  const contract = await lockContract(ctx, contractId);
  if (!(LIVE_STATUSES as readonly string[]).includes(contract.status))
    throw unprocessable(
      `Collections work only live contracts; ${contract.number} is ${contract.status.replace('_', ' ')}`,
      ERROR_CODES.CONTRACT_NOT_ACTIVE,
    );
  const id = newId();
  const now = ctx.clock.now();
  let promiseId: string | null = null;
  let deviceCommandId: string | null = null;
  const note = body.note?.trim() || null;

  if (body.kind === 'promise') {
    const date = body.promiseDate as string;
    const amount = body.promiseAmount as number;
    if (date < today)
      throw fieldRefusal('promiseDate', `The date promised must be today (${today}) or later`);
    const latest = addDays(today, PROMISE_MAX_DAYS);
    if (date > latest)
      throw fieldRefusal(
        'promiseDate',
        `The date promised must be within ${PROMISE_MAX_DAYS} days (by ${latest})`,
      );
    const { outstandingTotal } = await readFigures(ctx.tx, contractId);
    if (amount > outstandingTotal)
      throw fieldRefusal(
        'promiseAmount',
        `The amount is more than the ${formatMoney(outstandingTotal, contract.currency)} outstanding`,
      );
    const [kase] = await ctx.tx
      .select({ collectorId: collectionCases.collectorId })
      .from(collectionCases)
      .where(eq(collectionCases.contractId, contractId));
    promiseId = newId();
    await ctx.tx.insert(collectionPromises).values({
      id: promiseId,
      contractId,
      customerId: contract.customerId,
      collectorId: kase?.collectorId ?? actor.id,
      promisedDate: date,
      amount,
      currency: contract.currency,
      takenOn: today,
      takenAt: now,
      takenBy: actor.id,
    });
    await tablesChanged(ctx, ctx.tx, collectionPromises);
  }

  if (body.kind === 'escalate_lock') {
    const unit = await deviceControlOf(ctx.tx, contract.deviceId);
    if (unit.controlKind !== 'lock_api')
      throw unprocessable(
        unit.controlKind === 'openpaygo'
          ? 'This unit works on OpenPAYGO tokens: it locks by itself when its paid time runs out'
          : 'This unit cannot be locked remotely',
        ERROR_CODES.DEVICE_STATE,
      );
    if (unit.lockState === 'locked' || unit.lockPending)
      throw conflict('The device is locked already, or a lock is on its way', ERROR_CODES.DEVICE_STATE);
    deviceCommandId = await queueDeviceCommand(ctx, actor, {
      deviceId: contract.deviceId,
      contractId,
      kind: 'lock',
      reason: `Collections escalation: ${note}`,
      source: { type: 'collection_action', id },
    });
  }

  await ctx.tx.insert(collectionActions).values({
    id,
    contractId,
    customerId: contract.customerId,
    kind: body.kind,
    outcome: body.outcome ?? null,
    note,
    promiseId,
    deviceCommandId,
    actorId: actor.id,
    at: now,
    businessDate: today,
  });
  const summary = actionSummary(body, contract.currency);
  await addEvent(ctx, contractId, actor, `collection_${body.kind}`, summary, {
    actionId: id,
    promiseId,
    deviceCommandId,
  });
  await writeAudit(ctx.tx, actor, {
    action: 'collections.action',
    entityType: 'customer',
    entityId: contract.customerId,
    after: {
      actionId: id,
      contractId,
      contractNumber: contract.number,
      kind: body.kind,
      outcome: body.outcome ?? null,
      note,
      promiseDate: body.promiseDate ?? null,
      promiseAmount: body.promiseAmount ?? null,
      deviceCommandId,
      summary: `${contract.number}: ${summary}`,
    },
  });
  await tablesChanged(ctx, ctx.tx, collectionActions);
  await refreshCases(ctx, today, [contractId]);
  return id;
}

/** The timeline's words for an action. */
export function actionSummary(body: ActionBody, currency: string): string {
  const label = COLLECTION_ACTION_LABELS[body.kind as CollectionActionKind];
  const parts = [label];
  if (body.outcome) parts.push(CONTACT_OUTCOME_LABELS[body.outcome].toLowerCase());
  if (body.kind === 'promise')
    parts.push(`${formatMoney(body.promiseAmount ?? 0, currency)} by ${body.promiseDate}`);
  const text = parts.join(': ');
  return body.note ? `${text}. ${body.note.trim()}` : text;
}
