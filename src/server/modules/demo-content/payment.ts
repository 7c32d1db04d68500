import { createHash } from 'node:crypto';
import { DEMO_PERIOD_DAYS, type DemoContent, type DemoPayment, demoDeposit } from '../../../contracts/demo';
import { encodeToken, formatMoney } from '../../../domain';
import { fieldError } from '../../errors';

/**
 * A fixed key used by no real device: the demo's unlock code is a genuine OpenPAYGO token, but
 * one no unit accepts, and nothing about it is stored.
 */
const DEMO_OPENPAYGO_KEY = 'de30de30de30de30de30de30de30de30';

/**
 * The simulated deposit payment: a receipt and an unlock code computed from the device and the
 * plan alone (the same choice gives the same receipt), with no write to any table and no message
 * sent. The SMS text is what a real customer would receive.
 */
export function simulatePayment(
  content: DemoContent,
  currency: string,
  choice: { deviceId: string; planId: string },
): DemoPayment {
  const device = content.devices.find((item) => item.id === choice.deviceId);
  if (!device) throw fieldError('deviceId', 'This device is not in the demo (it may have just changed)');
  const plan = content.plans.find((item) => item.id === choice.planId);
  if (!plan) throw fieldError('planId', 'This plan is not in the demo (it may have just changed)');
  const amount = demoDeposit(device, plan);
  const digest = createHash('sha256')
    .update(`${device.id}|${device.price}|${plan.id}|${plan.depositPercent}|${plan.frequency}`)
    .digest();
  const receipt = `DEMO-${digest.subarray(0, 4).toString('hex').toUpperCase()}`;
  const days = DEMO_PERIOD_DAYS[plan.frequency];
  const { token } = encodeToken({
    secretKey: DEMO_OPENPAYGO_KEY,
    // A count from the choice, so different choices show different codes.
    count: digest.readUInt16BE(4) % 500,
    type: 'ADD_TIME',
    value: days,
  });
  const unlockCode = token.replace(/(\d{3})(?=\d)/g, '$1 ');
  const paid = formatMoney(amount, currency);
  return {
    simulated: true,
    receipt,
    amount,
    currency,
    method: 'Mobile money (simulated)',
    deviceName: device.name,
    planName: plan.name,
    unlockCode,
    days,
    sms: `DEMO: ${paid} received, receipt ${receipt}. Unlock code for your ${device.name}: ${unlockCode} (${days} ${days === 1 ? 'day' : 'days'}).`,
  };
}
