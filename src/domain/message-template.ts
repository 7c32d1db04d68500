import { refused } from './errors';
import { formatMoney } from './money';

/**
 * Message templates (decision 027): `{{name}}` placeholders (letters, digits and `_`, spaces
 * inside the braces allowed) replaced by the variables' text in one pass, so a value that itself
 * looks like `{{x}}` is sent as it is. A placeholder without a variable is an error, never a blank:
 * a reminder that says "your payment of  is due" must not go out. `templateSql`
 * (server/modules/messages/values-sql.ts) compiles a template by the same rule into one SQL
 * expression for the statements that queue many messages at once.
 */

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

export type TemplateVariables = Readonly<Record<string, string | number>>;

/** The variable names a template uses, each once, in order of first use. */
export function templateVariables(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1] as string))];
}

/**
 * The template cut at its placeholders: `pieces` has one more entry than `names`, and the text is
 * pieces[0] + value(names[0]) + pieces[1] + …, the rule `renderTemplate` applies (for code that
 * builds the same text another way, such as one SQL expression for a whole bulk send).
 */
export function splitTemplate(template: string): { pieces: string[]; names: string[] } {
  const pieces: string[] = [];
  const names: string[] = [];
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    pieces.push(template.slice(last, match.index));
    names.push(match[1] as string);
    last = match.index + match[0].length;
  }
  pieces.push(template.slice(last));
  return { pieces, names };
}

/** The template with its variables filled in; a missing one is a `MESSAGE_VARIABLE_MISSING` error. */
export function renderTemplate(template: string, variables: TemplateVariables): string {
  const missing = templateVariables(template).filter(
    (name) => !Object.hasOwn(variables, name) || variables[name] === undefined || variables[name] === null,
  );
  if (missing.length)
    throw refused(
      'MESSAGE_VARIABLE_MISSING',
      `The message template needs ${missing.map((name) => `"${name}"`).join(', ')}`,
      missing[0],
    );
  return template.replace(PLACEHOLDER, (_, name: string) => String(variables[name]));
}

/** Money in a message: the currency's code and the grouped amount ("KES 1,250.00"), as SQL writes it. */
export function messageMoney(minor: number, currency: string): string {
  return `${currency} ${formatMoney(minor, currency, { display: 'none', locale: 'en-US' })}`;
}

/** English month abbreviations, as PostgreSQL's `to_char(…, 'Mon')` writes them (never "Sept"). */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A date in a message ("6 Dec 2026"), as customers read one, from a business date (YYYY-MM-DD):
 * an ISO date in an SMS reads as a code. SQL writes the same text with `to_char(date,
 * 'FMDD Mon YYYY')` (`messageDateSql`, messages/values-sql.ts) for the set-based reminders.
 */
export function messageDate(isoDate: string): string {
  const [year, month, day] = isoDate.split('-').map(Number) as [number, number, number];
  return `${day} ${MONTHS[month - 1]} ${year}`;
}
