/**
 * Every server query's cache key, by area. A key is the URL split into segments (the default
 * query function joins them with "/"), so a shorter key is the prefix that covers every query
 * under it: `contracts.all()` covers the lists and each contract. Mutations never name keys
 * themselves; they name their effect in `mutation-effects.ts`, which lists the keys.
 */
export const queryKeys = {
  auth: {
    user: () => ['/api/user'] as const,
    invite: (token: string) => ['/api/invites/lookup', token] as const,
  },
  profile: {
    preferences: () => ['/api/user/preferences'] as const,
    sessions: () => ['/api/user/sessions'] as const,
    twoFactor: () => ['/api/user/two-factor'] as const,
  },
  settings: {
    organisation: () => ['/api/settings/organisation'] as const,
    /** The option lists the organisation configures (buckets...). */
    options: () => ['/api/settings/options'] as const,
    /** What public pages may know: name, currency, country. */
    publicOrganisation: () => ['/api/organisation'] as const,
    /** The business date, the last closed date, and whether this server lets them move. */
    businessDate: () => ['/api/business-date'] as const,
  },
  customers: {
    all: () => ['/api/customers'] as const,
    detail: (id: string) => ['/api/customers', id] as const,
    documents: (id: string) => ['/api/customers', id, 'documents'] as const,
    timeline: (id: string) => ['/api/customers', id, 'timeline'] as const,
    regions: () => ['/api/customers', 'regions'] as const,
    tags: () => ['/api/customers', 'tags'] as const,
  },
  devices: {
    all: () => ['/api/devices'] as const,
    lists: () => ['/api/devices', 'list'] as const,
    detail: (id: string) => ['/api/devices', id] as const,
    tokens: (id: string) => ['/api/devices', id, 'tokens'] as const,
    metrics: (id: string) => ['/api/devices', id, 'metrics'] as const,
  },
  deviceModels: {
    all: () => ['/api/device-models'] as const,
    detail: (id: string) => ['/api/device-models', id] as const,
    /** The whole catalogue by name (pickers and filters), keyed by its address. */
    catalogue: (url: string) => ['/api/device-models', 'all', url] as const,
    /** The models by name, for pickers (a segment's model filter). */
    choices: () => ['/api/device-models', 'choices'] as const,
  },
  plans: {
    all: () => ['/api/service-plans'] as const,
    detail: (id: string) => ['/api/service-plans', id] as const,
    /** Every plan by name, for pickers (a segment's plan filter). */
    choices: () => ['/api/service-plans', 'choices'] as const,
  },
  contracts: {
    all: () => ['/api/contracts'] as const,
    lists: () => ['/api/contracts', 'list'] as const,
    detail: (id: string) => ['/api/contracts', id] as const,
  },
  ledger: {
    all: () => ['/api/ledger'] as const,
    accounts: () => ['/api/ledger', 'accounts'] as const,
    trialBalance: (asOf: string) => ['/api/ledger', 'trial-balance', asOf] as const,
  },
  notifications: {
    all: () => ['/api/notifications'] as const,
    unreadCount: () => ['/api/notifications/unread-count'] as const,
  },
  users: {
    all: () => ['/api/users'] as const,
    invites: () => ['/api/invites'] as const,
  },
  help: {
    tutorials: () => ['/api/tutorials'] as const,
    progress: () => ['/api/user/tutorial-progress'] as const,
    features: () => ['/api/features'] as const,
  },
  activity: {
    usage: (from: string, to: string) => ['/api/activity/usage', from, to] as const,
  },
  audit: {
    /** The log under the applied filters (its pages are one infinite query). */
    log: (filters: object) => ['/api/audit', filters] as const,
  },
  eod: {
    runs: () => ['/api/eod/runs'] as const,
  },
  dashboard: {
    kpis: () => ['/api/dashboard/kpis'] as const,
  },
  deviceControl: {
    fleet: () => ['/api/device-control/fleet'] as const,
    /** The command log's pages (ListPage keys start with the path). */
    commands: () => ['/api/device-control/commands'] as const,
    /** One command with its attempts; the log's row keys it by its state and attempt count too, so it reads again when they move. */
    command: (id: string, ...version: Array<string | number>) =>
      ['/api/device-control/commands', id, ...version] as const,
    settings: () => ['/api/device-control/settings'] as const,
    /** One unit's command history (its page). */
    device: (id: string) => ['/api/devices', id, 'commands'] as const,
  },
  jobs: {
    all: () => ['/api/jobs/runs'] as const,
    runs: (failures: boolean) => ['/api/jobs/runs', { failures }] as const,
  },
  autoDebit: {
    /** The monitor's summary and the attempts list. */
    all: () => ['/api/auto-debit'] as const,
    summary: () => ['/api/auto-debit', 'summary'] as const,
    mandates: () => ['/api/mandates'] as const,
    mandateList: (active: string) => ['/api/mandates', { active }] as const,
    /** A contract's mandates and attempts (its page's card). */
    contract: (id: string) => ['/api/contracts', id, 'mandates'] as const,
  },
  messages: {
    /** A contract's messages (its page's card); under the contract's key, so what refreshes the contract refreshes them. */
    contract: (id: string, pageSize: number) => ['/api/contracts', id, 'messages', { pageSize }] as const,
    /** /communications: the outbox list, templates (and their versions), segments and bulk sends. */
    outbox: () => ['/api/outbox'] as const,
    templates: () => ['/api/message-templates'] as const,
    versions: (ref: object) => ['/api/message-templates', 'versions', ref] as const,
    segments: () => ['/api/segments'] as const,
    bulkSends: () => ['/api/bulk-sends'] as const,
    /** The messaging providers' settings (the Providers tab). */
    settings: () => ['/api/messaging/settings'] as const,
    /** A template rendered on a customer (the editor's and the send dialog's preview). */
    preview: (input: object) => ['/api/message-templates/preview', input] as const,
    /** A segment's filter counted as it is written. */
    segmentCount: (filter: string) => ['/api/segments/count', filter] as const,
  },
  /** /ai-customer-service: threads and the hand-off tasks. */
  conversations: {
    all: () => ['/api/conversations'] as const,
    list: (query: Record<string, string>) => ['/api/conversations', 'list', query] as const,
    thread: (id: string) => ['/api/conversations', id] as const,
  },
  tasks: {
    all: () => ['/api/tasks'] as const,
    list: (query: Record<string, string>) => ['/api/tasks', query] as const,
  },
  payments: {
    /** Every payment query: lists (ListPage keys start with the path) and receipts. */
    all: () => ['/api/payments'] as const,
    detail: (id: string) => ['/api/payments', id] as const,
    /** A receipt's corrections and transfer links (under `all`: a correction refreshes it). */
    history: (id: string) => ['/api/payments', id, 'history'] as const,
    /** An STK push's state, polled until the customer answers. */
    push: (id: string) => ['/api/payments', 'push', id] as const,
    /** The allocation preview of the post form for its inputs. */
    preview: (input: object) => ['/api/payments/preview', input] as const,
    corrections: () => ['/api/payment-corrections'] as const,
    /** The suspense queue (under `all`, so a posted payment refreshes it). */
    suspense: (query: object) => ['/api/payments', 'suspense', query] as const,
  },
  collections: {
    /** The queue and promise lists (ListPage keys start with their paths). */
    queue: () => ['/api/collections/queue'] as const,
    promises: () => ['/api/collections/promises'] as const,
    options: () => ['/api/collections/options'] as const,
    collectors: () => ['/api/collections/collectors'] as const,
    performance: (range?: object) =>
      (range
        ? ['/api/collections/performance', range]
        : ['/api/collections/performance']) as readonly unknown[],
    /** A contract's case: actions and promises (its page's card). */
    contractCase: (id?: string) =>
      (id ? ['/api/collections/contracts', id] : ['/api/collections/contracts']) as readonly unknown[],
  },
  recoveries: {
    repossessions: () => ['/api/repossessions'] as const,
    writeOffs: () => ['/api/write-offs'] as const,
    /** A contract's latest requests and balance (its page's card; under the contract's key). */
    contract: (id: string) => ['/api/contracts', id, 'recoveries'] as const,
  },
  paymentImports: {
    all: () => ['/api/payment-imports'] as const,
    list: (page: number) => ['/api/payment-imports', 'list', page] as const,
    detail: (id: string) => ['/api/payment-imports', id] as const,
    rows: (id: string, query: object) => ['/api/payment-imports', id, 'rows', query] as const,
  },
  // Issue 16: each block belongs to its area (customer portal, investor codes and portal, demo).
  portal: {
    /** Everything the signed-in customer sees: dropped at sign-in and sign-out. */
    all: () => ['/api/portal'] as const,
    me: () => ['/api/portal', 'me'] as const,
    contracts: () => ['/api/portal', 'contracts'] as const,
    /** The chat's thread, read as it opens and every little while it stays open. */
    chat: () => ['/api/portal', 'chat'] as const,
    /** A pay-now push, polled until the customer answers on their phone. */
    push: (id: string) => ['/api/portal', 'pushes', id] as const,
  },
  investor: {
    all: () => ['/api/investor'] as const,
    /** Staff: /admin/investor-codes. */
    codes: () => ['/api/investor-codes'] as const,
    me: () => ['/api/investor', 'me'] as const,
    summary: () => ['/api/investor', 'summary'] as const,
    cashFlows: () => ['/api/investor', 'cash-flows'] as const,
    vintages: () => ['/api/investor', 'vintages'] as const,
    parTrend: () => ['/api/investor', 'par-trend'] as const,
  },
  demo: {
    all: () => ['/api/demo'] as const,
    /** What /demo shows: the published content (or the default), or the draft in a preview. */
    content: (source: 'published' | 'draft') => ['/api/demo', 'content', source] as const,
    draft: () => ['/api/demo', 'draft'] as const,
    versions: () => ['/api/demo', 'versions'] as const,
    /** The calculator's quote for a device on a plan (the same engine as the contracts). */
    quote: (query: object) => ['/api/demo', 'quote', query] as const,
  },
} as const;
