import { eq } from 'drizzle-orm';
import type { ConversationChannel, CustomerIntent } from '../../../contracts/conversations';
import { conversations } from '../../../db/schema';
import { daysBetween, formatMoney, payoffQuote } from '../../../domain';
import { SYSTEM_ACTOR } from '../../audit';
import { businessToday } from '../../business-date';
import type { AppContext, TxContext } from '../../context';
import { organisation } from '../../organisation';
import { latestTokenMessage, resendTokenMessage } from '../messages/conversation-outbox';
import { paymentInstructions } from '../payments/mobile-money/instructions';
import { createTask, openTaskOfConversation } from '../tasks/service';
import {
  dueSummary,
  type OwnContract,
  type OwnCustomer,
  ownContracts,
  ownCustomer,
  ownPayments,
  schedule,
} from './data';
import { CAN_HELP_WITH, type CustomerQuery, parseCustomerText } from './intent';
import { classifyWithModel } from './model';

/** How long a confirmed identity lets the assistant re-send a token without asking again. */
export const IDENTITY_MINUTES = 15;
/** Wrong identity answers before the assistant stops asking and hands the thread to a person. */
const IDENTITY_TRIES = 3;

export interface AssistantReply {
  text: string;
  intent: CustomerIntent;
  /** The contract the answer is about, when one is: its timeline shows the exchange. */
  contractId: string | null;
  taskId: string | null;
  /** Outbox rows queued beside the answer (a re-sent token). */
  queued: string[];
}

export interface CustomerQuestion {
  customerId: string | null;
  conversationId: string;
  text: string;
  channel: ConversationChannel;
  /** The reading, when the caller made it before its transaction (`readCustomerText`). */
  query?: CustomerQuery;
  /** The thread as the caller just wrote it (else it is read). */
  thread?: ThreadState;
}

type ThreadState = Pick<typeof conversations.$inferSelect, 'pending' | 'verifiedUntil' | 'phone'>;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** 2026-12-15 → 15 Dec 2026: unambiguous in every locale the customers read. */
export function longDate(isoDate: string): string {
  const [y, m, d] = isoDate.slice(0, 10).split('-').map(Number) as [number, number, number];
  return `${d} ${MONTHS[m - 1]} ${y}`;
}

const helpText = () => `I can help with: ${CAN_HELP_WITH.join(', ')}.`;
const NO_ACCOUNT =
  'I could not find an account for this phone number. Reply AGENT and a person from our team will help you.';

/**
 * The parser's reading, or (when it found nothing and an OpenAI-compatible endpoint is set) the
 * model's intent. Call it outside the transaction: a model may take seconds.
 */
export async function readCustomerText(ctx: AppContext, text: string): Promise<CustomerQuery> {
  const org = await organisation(ctx, ctx.db);
  const query = parseCustomerText(text, businessToday(ctx, org));
  if (query.intent !== 'unknown') return query;
  const intent = await classifyWithModel(ctx, text);
  return intent ? { ...query, intent } : query;
}

/**
 * The customer-service assistant (issue 15 §5): answers a customer's message from THEIR OWN data
 * only — every read is by the thread's customer id, never by a number, name or phone the message
 * names — with figures from the database and the finance engine, in the organisation's currency.
 * Reused by the customer portal's chat. Writes what an answer needs (the identity step, a re-sent
 * token, a hand-off task) in the caller's transaction; queueing the answer itself is the caller's.
 */
export async function answerCustomer(ctx: TxContext, question: CustomerQuestion): Promise<AssistantReply> {
  const org = await organisation(ctx, ctx.tx);
  const today = businessToday(ctx, org);
  const money = (minor: number) => formatMoney(minor, org.currency);
  const query = question.query ?? parseCustomerText(question.text, today);
  const customer = question.customerId ? await ownCustomer(ctx.tx, question.customerId) : null;
  const thread: ThreadState | undefined =
    question.thread ??
    (
      await ctx.tx
        .select({
          pending: conversations.pending,
          verifiedUntil: conversations.verifiedUntil,
          phone: conversations.phone,
        })
        .from(conversations)
        .where(eq(conversations.id, question.conversationId))
    )[0];
  const reply = (
    text: string,
    intent: CustomerIntent,
    extra: Partial<AssistantReply> = {},
  ): AssistantReply => ({
    text,
    intent,
    contractId: null,
    taskId: null,
    queued: [],
    ...extra,
  });
  const setThread = (values: Partial<typeof conversations.$inferInsert>) =>
    ctx.tx.update(conversations).set(values).where(eq(conversations.id, question.conversationId));

  if (customer && thread?.pending?.startsWith('identity')) {
    const check = identityCheck(question.text, customer);
    if (check === 'match') {
      await setThread({
        pending: null,
        verifiedUntil: new Date(ctx.clock.now().getTime() + IDENTITY_MINUTES * 60_000),
      });
      const sent = await resendToken(ctx, question, customer, thread.phone);
      return { ...sent, text: `Thank you, that matches our records. ${sent.text}`, intent: 'identity' };
    }
    if (check === 'mismatch') {
      const tries = Number(thread.pending.split(':')[1] ?? 0) + 1;
      if (tries >= IDENTITY_TRIES) {
        await setThread({ pending: null });
        const task = await handOff(
          ctx,
          question,
          customer,
          'Identity not confirmed: the customer asked for an unlock code',
        );
        return reply(
          'That still does not match our records, so I cannot re-send the code. A person from our team will contact you.',
          'identity',
          { taskId: task },
        );
      }
      await setThread({ pending: `identity:${tries}` });
      return reply(
        'That does not match our records. Reply with the last 4 digits of your national ID or your account number, or AGENT to talk to a person.',
        'identity',
      );
    }
    await setThread({ pending: null });
  }

  switch (query.intent) {
    case 'greeting':
      return reply(`Hello${customer ? ` ${customer.firstName}` : ''}! ${helpText()}`, 'greeting');
    case 'help':
    case 'opt_out':
    case 'opt_in':
    case 'identity':
      return reply(helpText(), 'help');
    case 'unknown':
      return reply(
        `Sorry, I did not understand that. ${helpText()} Reply AGENT to talk to a person.`,
        'unknown',
      );
    case 'handoff': {
      const task = await handOff(ctx, question, customer, 'The customer asked for a person');
      return reply(
        task
          ? 'I have asked a person from our team to contact you. They will reply here as soon as they can.'
          : 'A person from our team already has your request and will reply here as soon as they can.',
        'handoff',
        { taskId: task },
      );
    }
    default:
      break;
  }

  if (!customer) return reply(NO_ACCOUNT, query.intent);
  const all = await ownContracts(ctx.tx, customer.id);
  const own = new Set(all.map((c) => c.number));
  // A number that is not the customer's own is never looked up, confirmed or denied.
  if (query.contractNumbers.some((n) => !own.has(n))) {
    return reply(
      all.length
        ? `I can only help with your own account: ${all.map((c) => c.number).join(', ')}.`
        : 'I can only help with your own account, and I found no contract on it.',
      query.intent,
    );
  }
  const named = all.filter((c) => query.contractNumbers.includes(c.number));
  const live = (named.length ? named : all).filter((c) => c.status === 'active' || c.status === 'defaulted');
  const about = (list: readonly OwnContract[]) => (list.length === 1 ? (list[0]?.id ?? null) : null);

  switch (query.intent) {
    case 'history': {
      const rows = await ownPayments(ctx.tx, customer.id, 5);
      if (!rows.length) return reply('I have no payments on record for you yet.', 'history');
      const lines = rows.map(
        (p) =>
          `${longDate(p.receivedAt.toISOString())}: ${money(p.amount)}${p.contractNumber ? ` on ${p.contractNumber}` : ''} (receipt ${p.receiptNumber})`,
      );
      return reply(
        `Your last ${rows.length === 1 ? 'payment' : `${rows.length} payments`}: ${lines.join('; ')}.`,
        'history',
      );
    }
    case 'how_to_pay': {
      const targets = live.length ? live : all.slice(0, 1);
      if (!targets.length) {
        const { payBill } = paymentInstructions(ctx.config, customer.accountNumber);
        return reply(
          `Pay by M-Pesa to paybill ${payBill}. You have no active contract with us at the moment.`,
          'how_to_pay',
        );
      }
      const lines = targets.map((c) => {
        const { payBill, account } = paymentInstructions(ctx.config, c.number);
        return `for ${c.number}, pay by M-Pesa to paybill ${payBill}, account ${account}`;
      });
      return reply(`To pay: ${lines.join('; ')}.`, 'how_to_pay', { contractId: about(targets) });
    }
    case 'token':
      return tokenAnswer(ctx, question, customer, thread?.verifiedUntil ?? null, thread?.phone ?? '');
    default:
      break;
  }

  if (!live.length) return reply('You have no active contract with us at the moment.', query.intent);
  const contractId = about(live);
  switch (query.intent) {
    case 'balance': {
      const lines = live.map((c) => {
        const dpd = c.arrearsSince && c.arrearsSince < today ? daysBetween(c.arrearsSince, today) : 0;
        return `${c.number}${c.device ? ` (${c.device})` : ''}: ${money(c.outstandingTotal)}${dpd > 0 ? `, ${dpd} days overdue` : ''}`;
      });
      return reply(`Your balance: ${lines.join('; ')}.`, 'balance', { contractId });
    }
    case 'next_due': {
      const lines: string[] = [];
      for (const c of live) {
        const { overdue, next } = dueSummary(await schedule(ctx.tx, c.id), today);
        const parts = [
          ...(overdue > 0 ? [`${money(overdue)} is overdue now`] : []),
          next
            ? `your next payment is ${money(next.amount)}, due on ${longDate(next.dueDate)}`
            : 'nothing more is due',
        ];
        lines.push(`${c.number}: ${parts.join(' and ')}`);
      }
      return reply(`${lines.join('; ')}.`, 'next_due', { contractId });
    }
    case 'payoff': {
      const date = query.date && query.date > today ? query.date : today;
      const lines: string[] = [];
      for (const c of live) {
        const quote = payoffQuote(await schedule(ctx.tx, c.id), date, {
          startDate: c.startDate,
          method: c.method,
          credit: c.credit,
        });
        lines.push(`to pay off ${c.number} on ${longDate(date)}, pay ${money(quote.total)}`);
      }
      const note = query.date && query.date < today ? ' (that date has passed, so this is for today)' : '';
      return reply(`${capitalise(lines.join('; '))}${note}.`, 'payoff', { contractId });
    }
    default:
      return reply(helpText(), 'help');
  }
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The customer's answer to "confirm your identity": the national ID's last 4 digits or the account number. */
function identityCheck(text: string, customer: OwnCustomer): 'match' | 'mismatch' | 'none' {
  const words = text.toUpperCase().match(/[A-Z0-9-]+/g) ?? [];
  const account = customer.accountNumber.toUpperCase().replace(/-/g, '');
  const idTail = customer.nationalId?.replace(/\D/g, '').slice(-4) ?? null;
  let candidate = false;
  for (const word of words) {
    const bare = word.replace(/-/g, '');
    if (/^CT\d+$/.test(bare)) continue;
    if (bare === account) return 'match';
    if (/^\d{4}$/.test(bare) && idTail && idTail.length === 4 && bare === idTail) return 'match';
    if (/\d{3,}/.test(bare)) candidate = true;
  }
  return candidate ? 'mismatch' : 'none';
}

async function tokenAnswer(
  ctx: TxContext,
  question: CustomerQuestion,
  customer: OwnCustomer,
  verifiedUntil: Date | null,
  phone: string,
): Promise<AssistantReply> {
  const latest = await latestTokenMessage(ctx.tx, customer.id);
  if (!latest) {
    return {
      text: 'There is no unlock code on your account yet.',
      intent: 'token',
      contractId: null,
      taskId: null,
      queued: [],
    };
  }
  if (verifiedUntil && verifiedUntil > ctx.clock.now()) return resendToken(ctx, question, customer, phone);
  await ctx.tx
    .update(conversations)
    .set({ pending: 'identity' })
    .where(eq(conversations.id, question.conversationId));
  return {
    text: 'To protect your account, please first confirm who you are: reply with the last 4 digits of your national ID or your account number.',
    intent: 'token',
    contractId: latest.contractId,
    taskId: null,
    queued: [],
  };
}

/** Queues the customer's latest token message again, as it was written, to the thread's number. */
async function resendToken(
  ctx: TxContext,
  question: CustomerQuestion,
  customer: OwnCustomer,
  phone: string,
): Promise<AssistantReply> {
  const latest = await latestTokenMessage(ctx.tx, customer.id);
  if (!latest) {
    return {
      text: 'There is no unlock code on your account yet.',
      intent: 'token',
      contractId: null,
      taskId: null,
      queued: [],
    };
  }
  const id = await resendTokenMessage(ctx, latest, {
    customerId: customer.id,
    // A portal chat's code goes by SMS: the portal shows the code itself.
    channel: question.channel === 'whatsapp' ? 'whatsapp' : 'sms',
    recipient: phone,
    conversationId: question.conversationId,
  });
  const contractNumber = (await ownContracts(ctx.tx, customer.id)).find(
    (contract) => contract.id === latest.contractId,
  )?.number;
  return {
    text: `I have re-sent your latest unlock code${contractNumber ? ` for ${contractNumber}` : ''} (issued ${longDate(latest.createdAt.toISOString())}). It arrives in a separate message.`,
    intent: 'token',
    contractId: latest.contractId,
    taskId: null,
    queued: [id],
  };
}

/**
 * A hand-off: one open task per thread, assigned to the customer's agent (else to no one, and
 * everyone who may answer is told). Answers the new task's id, or null when one is already open.
 */
async function handOff(
  ctx: TxContext,
  question: CustomerQuestion,
  customer: OwnCustomer | null,
  title: string,
): Promise<string | null> {
  if (await openTaskOfConversation(ctx.tx, question.conversationId)) return null;
  const contracts = customer ? await ownContracts(ctx.tx, customer.id) : [];
  const live = contracts.filter((c) => c.status === 'active' || c.status === 'defaulted');
  return createTask(ctx, SYSTEM_ACTOR, {
    title: customer
      ? `${title}: ${customer.firstName} (${customer.accountNumber})`
      : `${title}: an unknown number`,
    detail: `"${question.text.slice(0, 500)}" by ${question.channel}`,
    customerId: customer?.id ?? null,
    contractId: live.length === 1 ? (live[0]?.id ?? null) : null,
    conversationId: question.conversationId,
    assignedTo: customer?.assignedAgentId ?? null,
    source: 'assistant.handoff',
    link: `/ai-customer-service?conversation=${question.conversationId}`,
  });
}
