import {
  type DemoContent,
  type DemoDevice,
  type DemoPlan,
  type DemoTexts,
  demoContentSchema,
} from '@/contracts/demo';
import { moneyInputText, parseMoneyInput } from '@/web/lib/money';

/**
 * The editor's form: the draft's content with the figures people type kept as text (a price in
 * major units, a term, a percentage), so a half-typed value stays on screen with its message
 * instead of being lost. `fromForm` turns it back into content with one message per field, keyed
 * by the field's path (`devices.0.price`), the same keys the server's 400 names (after `content.`).
 */
export interface DeviceForm extends Omit<DemoDevice, 'price'> {
  price: string;
}
export interface PlanForm extends Omit<DemoPlan, 'depositPercent' | 'term' | 'apr'> {
  depositPercent: string;
  term: string;
  apr: string;
}
export interface EditorForm {
  devices: DeviceForm[];
  plans: PlanForm[];
  texts: DemoTexts;
  heroImageId: string | null;
}
export type FieldErrors = Readonly<Record<string, string>>;

export function toForm(content: DemoContent, currency: string): EditorForm {
  return {
    devices: content.devices.map((device) => ({ ...device, price: moneyInputText(device.price, currency) })),
    plans: content.plans.map((plan) => ({
      ...plan,
      depositPercent: String(plan.depositPercent),
      term: String(plan.term),
      apr: String(plan.apr),
    })),
    texts: content.texts,
    heroImageId: content.heroImageId,
  };
}

/** A number typed in a field, or NaN (which the content schema refuses with the field's message). */
const numberOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text.trim()));

export function fromForm(
  form: EditorForm,
  currency: string,
): { content: DemoContent; errors: FieldErrors } | { content: null; errors: FieldErrors } {
  const errors: Record<string, string> = {};
  const devices = form.devices.map((device, index) => {
    const price = parseMoneyInput(device.price, currency, 'Price');
    let minor = Number.NaN;
    if ('value' in price) minor = price.value;
    else errors[`devices.${index}.price`] = 'error' in price ? price.error : 'Price is required';
    return { ...device, price: minor };
  });
  const plans = form.plans.map((plan) => ({
    ...plan,
    depositPercent: numberOf(plan.depositPercent),
    term: numberOf(plan.term),
    apr: numberOf(plan.apr),
  }));
  const parsed = demoContentSchema.safeParse({
    devices,
    plans,
    texts: form.texts,
    heroImageId: form.heroImageId,
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = issue.path.join('.');
      errors[key] ??= issue.message;
    }
  }
  if (!parsed.success || Object.keys(errors).length) return { content: null, errors };
  return { content: parsed.data, errors };
}

/** The server's field names (`content.devices.0.name`) as the form's keys. */
export function serverFieldErrors(fields: Readonly<Record<string, string>>): FieldErrors {
  return Object.fromEntries(
    Object.entries(fields).map(([field, message]) => [field.replace(/^content\./, ''), message]),
  );
}

/** The list with the item at `from` moved to `to` (both in range). */
export function moved<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

/** A new item's id: short, lower-case, unlikely to meet another in one content. */
export function newItemId(prefix: 'device' | 'plan'): string {
  return `${prefix}-${Math.random().toString(36).slice(2, 8)}`;
}

export function blankDevice(): DeviceForm {
  return { id: newItemId('device'), name: '', category: 'phone', price: '', imageId: null, description: '' };
}

export function blankPlan(): PlanForm {
  return {
    id: newItemId('plan'),
    name: '',
    depositPercent: '10',
    frequency: 'weekly',
    term: '52',
    apr: '30',
    interestMethod: 'declining',
  };
}
