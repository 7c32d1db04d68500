import { MESSAGE_CHANNELS, type MessageChannel } from '@/contracts/messages';
import { FormField } from '@/web/components/form-field';
import { NativeSelect } from '@/web/components/ui/native-select';
import { CHANNEL_LABELS } from './queries';

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
