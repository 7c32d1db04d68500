import type { z } from 'zod';
import type { MessagingTestResult, messagingTestBody } from '../../../contracts/messaging-settings';
import type { AppContext } from '../../context';
import { fieldError } from '../../errors';
import { newId } from '../../ids';
import { organisation } from '../../organisation';
import { channelName } from './delivery-status';
import { providerFor } from './providers';
import { readMessagingSettings } from './settings';

/**
 * POST /api/messaging/settings/test: one message through the channel's configured provider now,
 * not through the outbox (no consent, quiet hours or retries: an administrator checking the
 * gateway), answering whether it took it and, if not, why in the provider's words.
 */
export async function sendTestMessage(
  ctx: AppContext,
  body: z.output<typeof messagingTestBody>,
): Promise<MessagingTestResult> {
  const { channel, recipient } = body;
  if (channel === 'email' ? !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(recipient) : !/^\+\d{8,15}$/.test(recipient))
    throw fieldError(
      'recipient',
      channel === 'email'
        ? 'Give an e-mail address, such as someone@example.com'
        : 'Give a phone number in international form, such as +254712345678',
    );
  const [row, org] = [await readMessagingSettings(ctx.db), await organisation(ctx, ctx.db)];
  const provider = providerFor(ctx, row, channel);
  const started = performance.now();
  try {
    const result = await provider.send({
      id: newId(),
      channel,
      recipient,
      subject: `Test message from ${org.name}`,
      body: `This is a test message from ${org.name}: ${channelName(channel)} messages are working.`,
    });
    return {
      ok: result.ok,
      provider: provider.name,
      reference: result.ok ? result.providerReference : null,
      reason: result.ok ? null : result.reason,
      latencyMs: Math.round(performance.now() - started),
    };
  } finally {
    await provider.close?.();
  }
}
