export { BulkTab } from './bulk-tab';
export { OutboxTab } from './outbox-tab';
export { SegmentsTab } from './segments-tab';
export { SendMessageButton } from './send-message-dialog';
export { TemplatesTab } from './templates-tab';
