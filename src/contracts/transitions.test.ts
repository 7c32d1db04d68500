import { describe, expect, it } from 'vitest';
import { CONTRACT_STATUSES, CONTRACT_TRANSITIONS } from './contracts';
import { DOCUMENT_STATUSES, DOCUMENT_TRANSITIONS } from './customers';
import { DEVICE_STATUSES, MANUAL_TRANSITIONS, moveByHandTo, UNIT_TRANSITIONS } from './devices';
import {
  REPOSSESSION_STATUSES,
  REPOSSESSION_TRANSITIONS,
  WRITE_OFF_STATUSES,
  WRITE_OFF_TRANSITIONS,
} from './recoveries';
import { canMove, movesFrom, type TransitionTable } from './transitions';

/** Every (move, status) pair: allowed exactly when listed, refused otherwise. */
function expectMatrix<S extends string, M extends string>(
  table: TransitionTable<S, M>,
  statuses: readonly S[],
  allowed: Record<M, string>,
) {
  for (const move of Object.keys(table) as M[]) {
    const from = allowed[move].split(' ').filter(Boolean);
    for (const status of statuses) {
      expect([move, status, canMove(table, move, status)]).toEqual([move, status, from.includes(status)]);
    }
  }
}

describe('transition tables', () => {
  it('contracts: submit a draft; approve, return or activate one pending approval; cancel before activation; paid off and reopened by payments; closed by repossession or write-off', () => {
    expectMatrix(CONTRACT_TRANSITIONS, CONTRACT_STATUSES, {
      submit: 'draft',
      approve: 'pending_approval',
      return: 'pending_approval',
      activate: 'pending_approval',
      cancel: 'draft pending_approval',
      payOff: 'active defaulted',
      reopen: 'paid_off',
      default: 'active',
      repossess: 'active defaulted',
      writeOff: 'active defaulted repossessed',
    });
    expect(CONTRACT_TRANSITIONS.activate.to).toBe('active');
    expect(CONTRACT_TRANSITIONS.return.to).toBe('draft');
    expect(movesFrom(CONTRACT_TRANSITIONS, 'active')).toEqual(['payOff', 'default', 'repossess', 'writeOff']);
  });

  it('recoveries: a repossession is decided once, recovered only when approved, cancelled until recovered; a write-off is decided once', () => {
    expectMatrix(REPOSSESSION_TRANSITIONS, REPOSSESSION_STATUSES, {
      approve: 'requested',
      reject: 'requested',
      recover: 'approved',
      cancel: 'requested approved',
    });
    expectMatrix(WRITE_OFF_TRANSITIONS, WRITE_OFF_STATUSES, { approve: 'pending', reject: 'pending' });
  });

  it('units: contracts reserve, assign and release; staff move the rest by hand; written off is final', () => {
    expectMatrix(UNIT_TRANSITIONS, DEVICE_STATUSES, {
      reserve: 'in_stock',
      assign: 'in_stock reserved',
      release: 'reserved assigned',
      return: 'assigned',
      repossess: 'assigned',
      restock: 'reserved returned repossessed lost',
      hold: 'in_stock',
      lose: 'in_stock reserved returned repossessed',
      write_off: 'in_stock reserved returned repossessed lost',
    });
    expect(movesFrom(UNIT_TRANSITIONS, 'written_off')).toEqual([]);
  });

  it('units: what staff may do by hand, per status, as the unit page offers it', () => {
    expect(MANUAL_TRANSITIONS).toEqual({
      in_stock: ['reserved', 'lost', 'written_off'],
      reserved: ['in_stock', 'lost', 'written_off'],
      assigned: [],
      returned: ['in_stock', 'lost', 'written_off'],
      repossessed: ['in_stock', 'lost', 'written_off'],
      lost: ['in_stock', 'written_off'],
      written_off: [],
    });
    expect(moveByHandTo('assigned')).toBeUndefined();
    expect(moveByHandTo('returned')).toBeUndefined();
    expect(moveByHandTo('lost')).toBe('lose');
  });

  it('KYC documents: a pending document is verified or rejected, once', () => {
    expectMatrix(DOCUMENT_TRANSITIONS, DOCUMENT_STATUSES, { verify: 'pending', reject: 'pending' });
  });
});
