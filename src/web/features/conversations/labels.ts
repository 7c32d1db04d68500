import type { ConversationChannel, ConversationLine, ConversationMode } from '@/contracts/conversations';

export const CHANNEL_LABELS: Record<ConversationChannel, string> = {
  whatsapp: 'WhatsApp',
  sms: 'SMS',
  portal: 'Portal chat',
};

export const MODE_LABELS: Record<ConversationMode, string> = {
  assistant: 'Assistant answers',
  staff: 'A person answers',
};

export const AUTHOR_LABELS: Record<ConversationLine['author'], string> = {
  customer: 'Customer',
  assistant: 'Assistant',
  staff: 'Staff',
  system: 'Automatic reply',
};
