import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DeviceCommandWithAttempts } from '@/contracts/device-control';
import { device, stubApi } from '@/web/features/devices/test-api';
import { jsonResponse, renderWithProviders } from '@/web/test/render';
import { BulkDialog, bulkSummary } from './bulk-dialog';
import { DeviceCommandsCard, tokenDaysIssue } from './device-commands';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const PHONE = device({ controlKind: 'lock_api', control: null, lockState: 'unlocked' });

const FAILED: DeviceCommandWithAttempts = {
  id: 'cmd-1',
  device: { id: PHONE.id, serialNumber: PHONE.serialNumber, controlKind: 'lock_api' },
  contractId: null,
  kind: 'lock',
  state: 'failed',
  reason: 'Arrears past lock-after',
  sourceType: 'eod_run',
  days: null,
  provider: 'lock_api',
  attempts: 1,
  nextAttemptAt: null,
  lastError: 'The lock API answered 503: Device service unavailable',
  requestedBy: null,
  createdAt: '2026-01-06T09:00:00.000Z',
  sentAt: '2026-01-06T09:00:01.000Z',
  completedAt: '2026-01-06T09:00:02.000Z',
  attemptLog: [
    {
      id: 'a1',
      attempt: 1,
      provider: 'lock_api',
      outcome: 'failed',
      startedAt: '2026-01-06T09:00:01.000Z',
      finishedAt: '2026-01-06T09:00:02.000Z',
      error: 'The lock API answered 503: Device service unavailable',
      response: { httpStatus: 503 },
    },
  ],
};

describe('rules', () => {
  it('checks a token’s days as the API does, and sums up a bulk answer in words', () => {
    expect(tokenDaysIssue('')).toBe('Days must be a whole number');
    expect(tokenDaysIssue('0')).toBe('Give at least 1 day');
    expect(tokenDaysIssue('996')).toBe('At most 995 days');
    expect(tokenDaysIssue('30')).toBeNull();
    expect(
      bulkSummary('lock', {
        queued: 1,
        skipped: [{ deviceId: 'd2', serialNumber: 'SN-2', reason: 'Already locked' }],
      }),
    ).toBe('1 unit queued to lock; 1 left out (SN-2: Already locked).');
  });
});

describe('DeviceCommandsCard', () => {
  it('shows the unit’s commands, expands a failed one to its attempt, and sends a manual lock after confirmation', async () => {
    const calls = stubApi({
      [`GET /api/devices/${PHONE.id}/commands`]: () => jsonResponse([FAILED]),
      'GET /api/device-control/commands/cmd-1': () => jsonResponse(FAILED),
      [`POST /api/devices/${PHONE.id}/commands`]: (call) =>
        jsonResponse(
          {
            ...FAILED,
            id: 'cmd-2',
            state: 'queued',
            attempts: 0,
            reason: (call.body as { reason: string }).reason,
          },
          201,
        ),
    });
    const user = userEvent.setup();
    renderWithProviders(<DeviceCommandsCard device={PHONE} />);
    const row = await screen.findByTestId('row-command-cmd-1');
    expect(within(row).getByTestId('badge-command-state')).toHaveTextContent('Failed');
    await user.click(within(row).getByTestId('button-expand-command'));
    const attempt = await screen.findByTestId('row-attempt-1');
    expect(attempt).toHaveTextContent('503');
    expect(attempt).toHaveTextContent('Lock API');

    // The reason is required before the confirmation opens.
    await user.click(screen.getByTestId('button-send-command'));
    expect(screen.getByTestId('error-command-reason')).toHaveTextContent('Give the reason');
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
    await user.type(screen.getByTestId('input-command-reason'), 'Customer reported it stolen');
    await user.click(screen.getByTestId('button-send-command'));
    await user.click(await screen.findByTestId('button-confirm'));
    await waitFor(() => expect(calls.some((call) => call.method === 'POST')).toBe(true));
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      kind: 'lock',
      reason: 'Customer reported it stolen',
    });
  });
});

describe('BulkDialog', () => {
  it('names the units, asks for the reason, and sends them together', async () => {
    const calls = stubApi({
      'POST /api/device-control/bulk': () => jsonResponse({ queued: 2, skipped: [] }, 201),
    });
    const onDone = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(
      <BulkDialog
        target={{
          kind: 'lock',
          units: [
            { id: 'd1', serialNumber: 'SN-1' },
            { id: 'd2', serialNumber: 'SN-2' },
          ],
        }}
        onClose={() => undefined}
        onDone={onDone}
      />,
    );
    expect(screen.getByTestId('text-bulk-units')).toHaveTextContent('SN-1, SN-2');
    await user.click(screen.getByTestId('button-confirm-bulk'));
    expect(screen.getByTestId('error-bulk-reason')).toHaveTextContent('Give the reason');
    await user.type(screen.getByTestId('input-bulk-reason'), 'Branch closing');
    await user.click(screen.getByTestId('button-confirm-bulk'));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      kind: 'lock',
      deviceIds: ['d1', 'd2'],
      reason: 'Branch closing',
    });
  });
});
