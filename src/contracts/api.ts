import { activityEndpoints } from './activity';
import { assistantEndpoints } from './assistant';
import { auditEndpoints } from './audit';
import { authEndpoints, inviteEndpoints, userEndpoints } from './auth';
import { autoDebitEndpoints } from './auto-debit';
import { businessDateEndpoints } from './business-date';
import { calculatorEndpoints } from './calculator';
import { eodEndpoints } from './close-of-business';
import { collectionEndpoints } from './collections';
import { communicationEndpoints } from './communications';
import { contractEndpoints } from './contracts';
import { conversationEndpoints, conversationWebhookEndpoints } from './conversations';
import { customerEndpoints } from './customers';
import { dashboardEndpoints } from './dashboard';
import { demoEndpoints } from './demo';
import { deviceControlEndpoints } from './device-control';
import { deviceMetricsEndpoints } from './device-metrics';
import { deviceEndpoints, deviceModelEndpoints } from './devices';
import type { Endpoint } from './endpoint';
import { healthEndpoints } from './health';
import { helpEndpoints } from './help';
import { investorEndpoints } from './investor';
import { jobEndpoints } from './jobs';
import { ledgerEndpoints } from './ledger';
import { messageEndpoints } from './messages';
import { messagingSettingsEndpoints } from './messaging-settings';
import { notificationEndpoints } from './notifications';
import { paymentImportEndpoints } from './payment-imports';
import { mobileMoneyEndpoints, paymentEndpoints } from './payments';
import { planEndpoints } from './plans';
import { portalEndpoints } from './portal';
import { profileEndpoints } from './profile';
import { recoveryEndpoints } from './recoveries';
import { settingsEndpoints } from './settings';
import { taskEndpoints } from './tasks';

/**
 * Every API endpoint, by area (decision 013). The server registers each with `route()`; the route
 * guard tests check that the server registers exactly these, with these schemas, so the web's
 * typed client can never call a route that does not exist or read an answer of another shape.
 */
export const ENDPOINTS = {
  plans: planEndpoints,
  customers: customerEndpoints,
  devices: deviceEndpoints,
  deviceModels: deviceModelEndpoints,
  deviceControl: deviceControlEndpoints,
  deviceMetrics: deviceMetricsEndpoints,
  contracts: contractEndpoints,
  payments: paymentEndpoints,
  paymentImports: paymentImportEndpoints,
  mobileMoney: mobileMoneyEndpoints,
  ledger: ledgerEndpoints,
  settings: settingsEndpoints,
  businessDate: businessDateEndpoints,
  notifications: notificationEndpoints,
  activity: activityEndpoints,
  help: helpEndpoints,
  audit: auditEndpoints,
  jobs: jobEndpoints,
  eod: eodEndpoints,
  dashboard: dashboardEndpoints,
  health: healthEndpoints,
  auth: authEndpoints,
  users: userEndpoints,
  invites: inviteEndpoints,
  profile: profileEndpoints,
  calculator: calculatorEndpoints,
  assistant: assistantEndpoints,
  autoDebit: autoDebitEndpoints,
  messages: messageEndpoints,
  messagingSettings: messagingSettingsEndpoints,
  communications: communicationEndpoints,
  collections: collectionEndpoints,
  recoveries: recoveryEndpoints,
  conversations: conversationEndpoints,
  conversationWebhooks: conversationWebhookEndpoints,
  tasks: taskEndpoints,
  portal: portalEndpoints,
  investor: investorEndpoints,
  demo: demoEndpoints,
} satisfies Record<string, Record<string, Endpoint>>;

/** Every endpoint, flat. */
export function allEndpoints(): Endpoint[] {
  return Object.values(ENDPOINTS).flatMap((area) => Object.values(area) as Endpoint[]);
}
