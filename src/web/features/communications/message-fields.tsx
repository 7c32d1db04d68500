import { MESSAGE_CHANNELS, type MessageChannel, type MessageTemplate } from '@/contracts/messages';
import { FormField } from '@/web/components/form-field';
import { NativeSelect } from '@/web/components/ui/native-select';
import { CHANNEL_LABELS, sendableGroups } from './queries';

/** The channel a template is written for or a message goes by: one field for every form that asks. */
export function ChannelField({
  id,
  value,
  onChange,
  error,
  testId,
}: {
  id: string;
  value: MessageChannel;
  onChange: (channel: MessageChannel) => void;
  error?: string;
  testId: string;
}) {
  return (
    <FormField id={id} label="Channel" error={error}>
      {(control) => (
        <NativeSelect
          {...control}
          value={value}
          onChange={(event) => onChange(event.target.value as MessageChannel)}
          data-testid={testId}
        >
          {MESSAGE_CHANNELS.map((c) => (
            <option key={c} value={c}>
              {CHANNEL_LABELS[c]}
            </option>
          ))}
        </NativeSelect>
      )}
    </FormField>
  );
}

/**
 * The staff templates written for a channel (built-ins go only with their events), for a single
 * or bulk send: one field, with a hint where the channel has none yet.
 */
export function TemplateField({
  id,
  channel,
  templates,
  value,
  onChange,
  error,
  testId,
}: {
  id: string;
  channel: MessageChannel;
  templates: readonly MessageTemplate[];
  value: string;
  onChange: (key: string) => void;
  error?: string;
  testId: string;
}) {
  const groups = sendableGroups(templates).filter((group) =>
    group.rows.some((row) => row.channel === channel),
  );
  return (
    <FormField
      id={id}
      label="Template"
      error={error}
      hint={
        groups.length
          ? undefined
          : `No ${CHANNEL_LABELS[channel]} template yet: write one under Communications.`
      }
    >
      {(control) => (
        <NativeSelect
          {...control}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          data-testid={testId}
        >
          <option value="">Choose…</option>
          {groups.map((group) => (
            <option key={group.key} value={group.key}>
              {group.name}
            </option>
          ))}
        </NativeSelect>
      )}
    </FormField>
  );
}
