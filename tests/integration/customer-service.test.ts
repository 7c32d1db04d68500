import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client';
import { formatMoney, type InstallmentPosition, payoffQuote } from '../../src/domain';
import { toPosition } from '../../src/server/modules/contracts/portfolio';
import { longDate } from '../../src/server/modules/customer-service/answer';
import { parseCustomerText } from '../../src/server/modules/customer-service/intent';
import { paymentInstructions } from '../../src/server/modules/payments/mobile-money/instructions';
import { organisation } from '../../src/server/organisation';
import { startTestApp, type TestApp } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { insertActiveContract } from '../support/fixtures';
import { postWhatsapp, textPayload } from '../support/whatsapp-payloads';

const TODAY = '2024-05-15';
const NOON = Date.parse(`${TODAY}T12:00:00Z`);

interface Person {
  id: string;
  firstName: string;
  lastName: string;
  phone: string;
  accountNumber: string;
  nationalId: string;
  contractId: string;
  contractNumber: string;
  token: string;
  receipts: string[];
}

/** What a customer's answers are checked against: their own figures, read from the database. */
interface Figures {
  balance: string;
  overdue: string;
  next: { amount: string; date: string };
  payoff: (date: string) => string;
  payments: string[];
  payBill: string;
}

describe.each(DATABASE_KINDS)('customer-service assistant on %s', (kind) => {
  let t: TestApp;
  let currency: string;
  let amina: Person;
  let peter: Person;
  const figures = new Map<string, Figures>();

  const ctx = () => t.app.ctx;
  const money = (minor: number) => formatMoney(minor, currency);

  async function person(
    name: [string, string],
    principal: number,
    nationalId: string,
    token: string,
    payments: number[],
  ): Promise<Person> {
    const contract = await insertActiveContract(ctx(), {
      principal,
      apr: 24,
      frequency: 'monthly',
      term: 6,
      startDate: '2024-04-01',
      customerName: name,
      dpd: 14,
    });
    const [row] = await queryRows<{ id: string; phone: string; account_number: string }>(
      ctx().db,
      sql`SELECT cu.id, cu.phone, cu.account_number FROM contracts c JOIN customers cu ON cu.id = c.customer_id WHERE c.id = ${contract.id}`,
    );
    if (!row) throw new Error('fixture');
    await ctx().db.execute(
      sql`UPDATE customers SET national_id = ${nationalId}, consent_whatsapp_at = now() WHERE id = ${row.id}`,
    );
    const receipts: string[] = [];
    for (const [i, amount] of payments.entries()) {
      const receipt = `RC-${name[0].toUpperCase()}-${i + 1}${principal}`;
      receipts.push(receipt);
      await ctx().db.execute(
        sql`INSERT INTO payments (id, receipt_number, contract_id, customer_id, amount, currency, method, received_at, status)
            VALUES (${randomUUID()}, ${receipt}, ${contract.id}, ${row.id}, ${amount}, ${currency}, 'mobile_money',
                    ${new Date(NOON - (i + 1) * 86_400_000 * 10).toISOString()}::timestamptz, 'posted')`,
      );
    }
    await ctx().db.execute(
      sql`INSERT INTO messages (id, customer_id, contract_id, channel, recipient, template_key, template_version, body,
                                status, dedupe_key, created_at, updated_at)
          VALUES (${randomUUID()}, ${row.id}, ${contract.id}, 'sms', ${row.phone}, 'token', 1,
                  ${`Your unlock code for ${contract.number} is ${token}.`}, 'delivered', ${`token:test:${row.id}`},
                  ${new Date(NOON - 86_400_000).toISOString()}::timestamptz, now())`,
    );
    return {
      id: row.id,
      firstName: name[0],
      lastName: name[1],
      phone: row.phone,
      accountNumber: row.account_number,
      nationalId,
      contractId: contract.id,
      contractNumber: contract.number,
      token,
      receipts,
    };
  }

  async function figuresOf(p: Person): Promise<Figures> {
    const [contract] = await queryRows<{
      outstanding_total: number;
      start_date: string;
      interest_method: string;
      credit_balance: number;
    }>(
      ctx().db,
      sql`SELECT outstanding_total::float8 AS outstanding_total, start_date::text, interest_method, credit_balance::float8 AS credit_balance
          FROM contracts c JOIN contract_figures f ON f.contract_id = c.id WHERE c.id = ${p.contractId}`,
    );
    const installments = await queryRows<Record<string, unknown>>(
      ctx().db,
      sql`SELECT * FROM contract_installments WHERE contract_id = ${p.contractId} ORDER BY n`,
    );
    const positions: InstallmentPosition[] = installments.map((r) =>
      toPosition({
        contractId: String(r.contract_id),
        scheduleVersion: Number(r.schedule_version),
        n: Number(r.n),
        dueDate: String(r.due_date).slice(0, 10),
        principalDue: Number(r.principal_due),
        interestDue: Number(r.interest_due),
        feeDue: Number(r.fee_due),
        penaltyDue: Number(r.penalty_due),
        principalPaid: Number(r.principal_paid),
        interestPaid: Number(r.interest_paid),
        feePaid: Number(r.fee_paid),
        penaltyPaid: Number(r.penalty_paid),
      } as Parameters<typeof toPosition>[0]),
    );
    const unpaid = (x: InstallmentPosition) =>
      x.due.principal +
      x.due.interest +
      x.due.fee +
      x.due.penalty -
      x.paid.principal -
      x.paid.interest -
      x.paid.fee -
      x.paid.penalty;
    const overdue = positions.filter((x) => x.dueDate <= TODAY).reduce((s, x) => s + unpaid(x), 0);
    const next = positions.find((x) => x.dueDate > TODAY && unpaid(x) > 0);
    if (!contract || !next) throw new Error('fixture');
    const pays = await queryRows<{ amount: number }>(
      ctx().db,
      sql`SELECT amount::float8 AS amount FROM payments WHERE customer_id = ${p.id} ORDER BY received_at DESC`,
    );
    return {
      balance: money(contract.outstanding_total),
      overdue: money(overdue),
      next: { amount: money(unpaid(next)), date: longDate(next.dueDate) },
      payoff: (date) =>
        money(
          payoffQuote(positions, date, {
            startDate: contract.start_date,
            method: contract.interest_method as 'declining' | 'flat',
            credit: contract.credit_balance,
          }).total,
        ),
      payments: pays.map((x) => money(x.amount)),
      payBill: paymentInstructions(ctx().config, p.contractNumber).payBill,
    };
  }

  /** Sends a WhatsApp message from this person's phone and answers the assistant's reply. */
  async function ask(p: Pick<Person, 'phone'>, text: string): Promise<string> {
    const response = await postWhatsapp(t.app, textPayload({ from: p.phone, text }));
    expect(response.statusCode).toBe(200);
    const [line] = await queryRows<{ body: string; author: string }>(
      ctx().db,
      sql`SELECT m.body, m.author FROM conversation_messages m JOIN conversations c ON c.id = m.conversation_id
          WHERE c.phone = ${p.phone} ORDER BY m.created_at DESC, m.id DESC LIMIT 1`,
    );
    expect(line?.author).not.toBe('customer');
    return line?.body ?? '';
  }

  beforeAll(async () => {
    t = await startTestApp(kind);
    t.clock.ms = NOON;
    currency = (await organisation(ctx(), ctx().db)).currency;
    amina = await person(['Amina', 'Otieno'], 50_000, '23456781', '111 222 333', [10_000, 5_000, 2_500]);
    peter = await person(['Peter', 'Mwangi'], 73_300, '98761234', '987 654 321', [7_777, 6_666]);
    figures.set(amina.id, await figuresOf(amina));
    figures.set(peter.id, await figuresOf(peter));
  });
  afterAll(() => t.close());

  type Check = (answer: string, f: Figures, p: Person) => void;
  const contains =
    (...parts: Array<(f: Figures, p: Person) => string>): Check =>
    (answer, f, p) => {
      for (const part of parts) expect(answer).toContain(part(f, p));
    };
  const balance = contains(
    (f) => f.balance,
    (_f, p) => p.contractNumber,
  );
  const nextDue = contains(
    (f) => f.next.amount,
    (f) => f.next.date,
    (f) => f.overdue,
  );
  const howToPay = contains(
    (f) => `paybill ${f.payBill}`,
    (_f, p) => `account ${p.contractNumber}`,
  );
  const payoffAt = (date: string) =>
    contains(
      (f) => f.payoff(date),
      () => longDate(date),
    );
  const history = contains(
    (f) => f.payments[0] ?? '',
    (f) => f.payments[1] ?? '',
    (f) => f.payments[2] ?? '',
    (_f, p) => p.receipts[0] ?? '',
  );
  const handoff: Check = (answer) => expect(answer).toMatch(/person from our team/);
  const greeting: Check = (answer, _f, p) => {
    expect(answer).toContain(`Hello ${p.firstName}`);
    expect(answer).toContain('I can help with');
  };
  const help: Check = (answer) => expect(answer).toContain('I can help with');
  const unknown: Check = (answer) => {
    expect(answer).toMatch(/did not understand/);
    expect(answer).toContain('I can help with');
  };
  const identityAsked: Check = (answer) => expect(answer).toMatch(/last 4 digits of your national ID/);

  /** Forty ways customers ask, each checked against Amina's own figures. Token questions last (they ask for identity). */
  const PHRASINGS: Array<[string, string, Check]> = [
    ['What is my balance?', 'balance', balance],
    ['balnce', 'balance', balance],
    ['how much do I owe', 'balance', balance],
    ['How much is left to pay?', 'balance', balance],
    ['salio yangu', 'balance', balance],
    ['outstanding amount pls', 'balance', balance],
    ['When is my next payment?', 'next_due', nextDue],
    ['next instalment', 'next_due', nextDue],
    ['when do i pay', 'next_due', nextDue],
    ['due date?', 'next_due', nextDue],
    ['how much is my next installment', 'next_due', nextDue],
    ['lini nilipe', 'next_due', nextDue],
    ['How do I pay?', 'how_to_pay', howToPay],
    ['what is the paybill', 'how_to_pay', howToPay],
    ['mpesa details', 'how_to_pay', howToPay],
    ['where to pay', 'how_to_pay', howToPay],
    ['Lipa vipi', 'how_to_pay', howToPay],
    ['How much to pay off everything?', 'payoff', payoffAt(TODAY)],
    ['if I pay everything on 15 Dec', 'payoff', payoffAt('2024-12-15')],
    ['settle my loan on 2024-06-30', 'payoff', payoffAt('2024-06-30')],
    ['payoff on 1/7', 'payoff', payoffAt('2024-07-01')],
    ['I want to clear my loan tomorrow', 'payoff', payoffAt('2024-05-16')],
    ['pay in full today', 'payoff', payoffAt(TODAY)],
    ['payment history', 'history', history],
    ['my last payments', 'history', history],
    ['did I pay last month', 'history', history],
    ['send my receipts', 'history', history],
    ['hello', 'greeting', greeting],
    ['habari', 'greeting', greeting],
    ['help', 'help', help],
    ["what's the weather like", 'unknown', unknown],
    ['asdfgh', 'unknown', unknown],
    ['do you like football', 'unknown', unknown],
    ['tell me a joke', 'unknown', unknown],
    ['talk to a person', 'handoff', handoff],
    ['I want an agent', 'handoff', handoff],
    ['call me please', 'handoff', handoff],
    ['I need my unlock code', 'token', identityAsked],
    ['tokn please', 'token', identityAsked],
    ['my phone is locked', 'token', identityAsked],
  ];

  it('has forty phrasings, each read as its intent', () => {
    expect(PHRASINGS).toHaveLength(40);
    for (const [text, intent] of PHRASINGS)
      expect([text, parseCustomerText(text, TODAY).intent]).toEqual([text, intent]);
  });

  it("answers each phrasing with the customer's own figures", async () => {
    const f = figures.get(amina.id) as Figures;
    for (const [text, , check] of PHRASINGS) {
      const answer = await ask(amina, text);
      if (process.env.SHOW_ANSWERS) console.log(`${text} => ${answer}`);
      try {
        check(answer, f, amina);
      } catch (error) {
        throw new Error(`"${text}" was answered "${answer}": ${(error as Error).message}`);
      }
    }
  });

  it('re-sends the latest token only after the identity is confirmed', async () => {
    const tokens = async () =>
      queryRows<{ body: string; channel: string; recipient: string }>(
        ctx().db,
        sql`SELECT body, channel, recipient FROM messages WHERE customer_id = ${amina.id} AND template_key = 'token' ORDER BY created_at`,
      );
    const before = (await tokens()).length;
    identityAsked(await ask(amina, 'send my token'), figures.get(amina.id) as Figures, amina);
    expect(await ask(amina, '1111')).toMatch(/does not match/);
    expect(await ask(amina, `it is ${peter.nationalId.slice(-4)}`)).toMatch(/does not match/);
    expect((await tokens()).length).toBe(before);
    const confirmed = await ask(amina, amina.nationalId.slice(-4));
    expect(confirmed).toMatch(/re-sent your latest unlock code/);
    expect(confirmed).not.toContain(amina.token);
    const after = await tokens();
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)).toEqual({
      body: `Your unlock code for ${amina.contractNumber} is ${amina.token}.`,
      channel: 'whatsapp',
      recipient: amina.phone,
    });
    // Within the confirmed window, asked again: re-sent without asking.
    expect(await ask(amina, 'token again please')).toMatch(/re-sent/);
    // Peter confirms with his account number.
    identityAsked(await ask(peter, 'unlock code'), figures.get(peter.id) as Figures, peter);
    expect(await ask(peter, `my account is ${peter.accountNumber}`)).toMatch(/re-sent/);
  });

  it('asks the optional model only what the parser did not understand, and never for figures', async () => {
    const asked: string[] = [];
    let answer: unknown = { intent: 'balance' };
    const fake = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        const messages = (JSON.parse(body) as { messages: Array<{ content: string }> }).messages;
        asked.push(messages.at(-1)?.content ?? '');
        if (answer === 'fail') {
          response.writeHead(500).end();
          return;
        }
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ choices: [{ message: { content: JSON.stringify(answer) } }] }));
      });
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const { port } = fake.address() as AddressInfo;
    await ctx().db.execute(
      sql`UPDATE messaging_settings SET ai_base_url = ${`http://127.0.0.1:${port}/v1`}, ai_model = 'test'`,
    );
    try {
      const f = figures.get(amina.id) as Figures;
      balance(await ask(amina, 'yo what am i still carrying on this thing'), f, amina);
      expect(asked).toEqual(['yo what am i still carrying on this thing']);
      // The parser understood: the model is not asked.
      balance(await ask(amina, 'what is my balance'), f, amina);
      expect(asked).toHaveLength(1);
      // A failing model, or one answering outside the intents, leaves the parser's reading.
      answer = 'fail';
      unknown(await ask(amina, 'blorp the flange'), f, amina);
      answer = { intent: 'transfer_money', amount: 5000 };
      unknown(await ask(amina, 'blorp the flange again'), f, amina);
      expect(asked).toHaveLength(3);
    } finally {
      await ctx().db.execute(sql`UPDATE messaging_settings SET ai_base_url = NULL, ai_model = NULL`);
      await new Promise((resolve) => fake.close(resolve));
    }
  });

  it("never gives one customer another's data, whatever the phrasing", async () => {
    const other = peter;
    const theirs = figures.get(other.id) as Figures;
    const digits = other.phone.replace(/\D/g, '');
    const questions = [
      `What is the balance of ${other.contractNumber}?`,
      `balance ${other.contractNumber.replace('CT-', 'ct ')}`,
      `How much does ${other.firstName} ${other.lastName} owe?`,
      `next payment for ${other.phone}`,
      `when is the next payment of ${digits}`,
      `payoff for account ${other.accountNumber}`,
      `Payoff ${other.contractNumber} on 15 Dec`,
      `send the unlock code of ${other.contractNumber}`,
      `token for ${other.firstName}`,
      `payment history of ${digits}`,
      `I am ${other.firstName} ${other.lastName}, what is my balance`,
      `my number is ${other.phone}, how much do I owe`,
      `how do I pay for ${other.contractNumber}`,
      `what did ${other.firstName} pay last month`,
      `tell me about contract ${other.contractNumber}`,
      `${other.lastName} balance`,
      `unlock code`,
      other.accountNumber,
      `${other.nationalId.slice(-4)}`,
      `receipts for ${other.contractNumber}`,
    ];
    const forbidden = [
      other.contractNumber,
      other.firstName,
      other.lastName,
      digits,
      other.accountNumber,
      other.token,
      theirs.balance,
      theirs.next.amount,
      theirs.payoff(TODAY),
      ...theirs.payments,
      ...other.receipts,
    ];
    const mine = figures.get(amina.id) as Figures;
    // The figures compared must tell the two customers apart.
    for (const figure of [theirs.balance, theirs.next.amount, ...theirs.payments]) {
      expect([mine.balance, mine.next.amount, ...mine.payments]).not.toContain(figure);
    }
    for (const question of questions) {
      const answer = await ask(amina, question);
      for (const word of forbidden) {
        if (answer.includes(word))
          throw new Error(`"${question}" was answered "${answer}", which names ${word}`);
      }
    }
    // And an unknown number learns nothing of anyone.
    for (const question of questions.slice(0, 8)) {
      const answer = await ask({ phone: '+254722000111' }, question);
      for (const word of [...forbidden, amina.contractNumber, amina.firstName, mine.balance]) {
        expect(answer).not.toContain(word);
      }
    }
  });
});
