import { useQuery } from '@tanstack/react-query';
import { communicationEndpoints } from '@/contracts/communications';
import { type MessageTemplate, messageEndpoints } from '@/contracts/messages';
import { LANGUAGE_LABELS as CUSTOMER_LANGUAGE_LABELS } from '@/web/features/customers/format';
import { api } from '@/web/lib/api';
import { queryKeys } from '@/web/lib/query-keys';

/** Every template (all keys, channels and languages). */
export function useTemplates() {
  return useQuery({
    queryKey: queryKeys.messages.templates(),
    queryFn: () => api(messageEndpoints.templates),
    staleTime: 30_000,
  });
}

export function useSegments() {
  return useQuery({
    queryKey: queryKeys.messages.segments(),
    queryFn: () => api(communicationEndpoints.segments),
  });
}

export function useBulkSends() {
  return useQuery({
    queryKey: queryKeys.messages.bulkSends(),
    queryFn: () => api(communicationEndpoints.bulkSends),
    // Progress moves as the sender works.
    refetchInterval: 15_000,
  });
}

export interface TemplateGroup {
  key: string;
  name: string;
  builtin: boolean;
  variables: readonly string[];
  rows: MessageTemplate[];
}

/** Templates grouped by key (every language and channel of one key together), in the server's order. */
export function groupTemplates(items: readonly MessageTemplate[]): TemplateGroup[] {
  const groups = new Map<string, TemplateGroup>();
  for (const row of items) {
    const group = groups.get(row.key) ?? {
      key: row.key,
      name: row.name ?? row.key,
      builtin: row.builtin ?? false,
      variables: row.variables,
      rows: [],
    };
    group.rows.push(row);
    groups.set(row.key, group);
  }
  return [...groups.values()];
}

/** Keys a person may send by hand or in bulk: the ones staff wrote (built-ins belong to their events). */
export function sendableGroups(items: readonly MessageTemplate[]): TemplateGroup[] {
  return groupTemplates(items).filter((group) => !group.builtin);
}

export const CHANNEL_LABELS = { sms: 'SMS', whatsapp: 'WhatsApp', email: 'E-mail' } as const;

export const LANGUAGE_LABELS: Record<string, string> = CUSTOMER_LANGUAGE_LABELS;

export const languageLabel = (code: string) => LANGUAGE_LABELS[code] ?? code;
