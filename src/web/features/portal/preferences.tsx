import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { CustomerLanguage } from '@/contracts/customers';
import { type PortalConsent, type PortalMe, portalEndpoints } from '@/contracts/portal';
import { api } from '@/web/lib/api';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';

/**
 * The languages the portal offers for messages, named: the customers area's CUSTOMER_LANGUAGES
 * (typed against it; a type import, so its schemas stay out of this chunk).
 */
const LANGUAGES: Array<[CustomerLanguage, string]> = [
  ['en', 'English'],
  ['sw', 'Kiswahili'],
  ['fr', 'Français'],
  ['pt', 'Português'],
  ['ar', 'العربية'],
  ['am', 'አማርኛ'],
  ['ha', 'Hausa'],
  ['yo', 'Yorùbá'],
  ['lg', 'Luganda'],
  ['rw', 'Kinyarwanda'],
];
const CHANNELS: Array<[PortalConsent, string]> = [
  ['sms', 'SMS'],
  ['whatsapp', 'WhatsApp'],
  ['email', 'E-mail'],
];

/**
 * The language of the customer's messages and consent per channel (untick to opt out). Each
 * change is saved at once and audited as the customer's own act. Loaded when opened.
 */
export default function PortalPreferences({ me }: { me: PortalMe }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const languageId = useId();

  async function save(body: { language?: string; consents?: Partial<Record<PortalConsent, boolean>> }) {
    setBusy(true);
    setMessage(null);
    try {
      const saved = await api(portalEndpoints.preferences, { body });
      queryClient.setQueryData(queryKeys.portal.me(), saved);
      setMessage({ text: 'Saved.', error: false });
    } catch (cause) {
      setMessage({ text: errorMessage(cause), error: true });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-col gap-4 text-sm">
      <div className="flex flex-col gap-1">
        <label htmlFor={languageId} className="font-medium">
          Language of our messages
        </label>
        <select
          id={languageId}
          value={me.language}
          disabled={busy}
          onChange={(event) => void save({ language: event.target.value })}
          className="h-11 rounded-md border bg-background px-3"
          data-testid="select-language"
        >
          {LANGUAGES.map(([code, name]) => (
            <option key={code} value={code}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 font-medium">Messages we may send you</legend>
        {CHANNELS.map(([channel, name]) => (
          <label key={channel} className="flex min-h-11 items-center gap-3">
            <input
              type="checkbox"
              className="size-5 accent-primary"
              checked={me.consents[channel]}
              disabled={busy}
              onChange={(event) => void save({ consents: { [channel]: event.target.checked } })}
              data-testid={`checkbox-consent-${channel}`}
            />
            {name}
          </label>
        ))}
        <p className="text-muted-foreground text-xs">
          Without SMS we cannot send your sign-in code or unlock codes by SMS.
        </p>
      </fieldset>
      {message ? (
        <p
          role={message.error ? 'alert' : 'status'}
          className={message.error ? 'text-destructive' : undefined}
        >
          {message.text}
        </p>
      ) : null}
    </div>
  );
}
