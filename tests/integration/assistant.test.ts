import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, runPortfolioScenario, type ScenarioContract } from '../../src/domain';
import { businessDate } from '../../src/server/dates';
import { portfolioBatches } from '../../src/server/modules/contracts/portfolio';
import { startTestApp, type TestApp, type TestClient } from '../support/app';
import { DATABASE_KINDS } from '../support/databases';
import { startDemoBookApp } from '../support/demo-book';
import { insertActiveContract } from '../support/fixtures';

const QUICK_QUERIES = [
  'Increase daily payment to $0.50',
  '20% service discount for 30 days',
  'Adjust APR to 19%',
];

describe.each(DATABASE_KINDS)('Finance AI Assistant on %s', (kind) => {
  let t: TestApp;
  let agent: TestClient;
  beforeAll(async () => {
    t = await startTestApp(kind);
    agent = await t.signedIn('viewer');
  });
  afterAll(() => t.close());

  const ask = async (query: string) => {
    const response = await agent.post('/api/ai/analyze', { query });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  it('says honestly that there is nothing to model before any contract exists', async () => {
    for (const query of QUICK_QUERIES) {
      const answer = await ask(query);
      expect(answer.summary).toMatch(/no active contracts yet/);
      expect(answer.impacts).toEqual({ termReduction: 0, interestSavings: 0 });
      expect(answer.confidence).toBe(0.95);
    }
    expect((await ask('What is PAR30?')).summary).toMatch(/no active contracts yet/);
  });

  it('answers unknown questions with low confidence and what can be asked', async () => {
    const answer = await ask('What will the weather be tomorrow?');
    expect(answer.confidence).toBeLessThan(0.5);
    expect(answer.suggestions).toContain('Adjust APR to 19%');
    expect(answer.summary).toMatch(/could not match/);
  });

  it('refuses a blank or oversized query and anonymous callers', async () => {
    expect((await agent.post('/api/ai/analyze', { query: '   ' })).statusCode).toBe(400);
    expect((await agent.post('/api/ai/analyze', { query: 'x'.repeat(501) })).statusCode).toBe(400);
    expect((await t.client().post('/api/ai/analyze', { query: 'Adjust APR to 19%' })).statusCode).toBe(401);
  });

  describe('over a portfolio', () => {
    const today = () => businessDate(t.clock.now(), 'UTC');
    beforeAll(async () => {
      const start = addDays(businessDate(t.clock.now(), 'UTC'), -10);
      await insertActiveContract(t.app.ctx, {
        principal: 9_125,
        apr: 36.5,
        frequency: 'daily',
        term: 365,
        startDate: start,
        paid: 9,
        customerName: ['Amina', 'Otieno'],
      });
      await insertActiveContract(t.app.ctx, {
        principal: 12_000,
        apr: 30,
        frequency: 'daily',
        term: 365,
        startDate: start,
        paid: 5,
        dpd: 4,
        customerName: ['Peter', 'Mwangi'],
      });
      await insertActiveContract(t.app.ctx, {
        principal: 120_000,
        apr: 24,
        frequency: 'monthly',
        term: 12,
        startDate: start,
        serviceFee: 500,
        dpd: 45,
        customerName: ['Lucy', 'Wanjiru'],
      });
    });

    const engine = async (
      change: Parameters<typeof runPortfolioScenario>[1],
      filter: (c: ScenarioContract) => boolean = () => true,
    ) => {
      const contracts: ScenarioContract[] = [];
      for await (const batch of portfolioBatches(t.app.ctx)) contracts.push(...batch.filter(filter));
      return runPortfolioScenario(contracts, change, today());
    };

    it('models the three quick queries with the engine’s own figures', async () => {
      const daily = await ask('Increase daily payment to $0.50');
      const expected = await engine(
        { kind: 'installment', amount: 50, includesServiceFee: true },
        (c) => c.frequency === 'daily',
      );
      expect(expected.applied).toBe(2);
      expect(daily.impacts).toEqual({
        termReduction: Math.round(expected.totals.termReductionDays / expected.applied),
        interestSavings: expected.totals.interestSavings,
      });
      expect(daily.impacts.termReduction).toBeGreaterThan(0);
      expect(daily.impacts.interestSavings).toBeGreaterThan(0);
      expect(daily.summary).toBe(
        `Setting the daily payment to $0.50 on 2 contracts of the active portfolio: they end ${daily.impacts.termReduction} days sooner on average and customers save $${(expected.totals.interestSavings / 100).toFixed(2)} in interest. 1 contract is left out (not on a daily plan).`,
      );
      expect(daily.details).toContain('Left out: 1 contract (not on a daily plan).');

      const discount = await ask('20% service discount for 30 days');
      const expectedDiscount = await engine({ kind: 'service_discount', percent: 20, days: 30 });
      expect(discount.impacts.interestSavings).toBe(expectedDiscount.totals.interestSavings);
      expect(discount.summary).toContain(
        `customers save $${(expectedDiscount.totals.serviceFeeSavings / 100).toFixed(2)} in service fees`,
      );

      const apr = await ask('Adjust APR to 19%');
      const expectedApr = await engine({ kind: 'apr', apr: 19 });
      expect(apr.impacts.interestSavings).toBe(expectedApr.totals.interestSavings);
      expect(apr.impacts.termReduction).toBe(0);
    });

    it('runs a scenario on one named contract, and quotes its payoff', async () => {
      const [first] = (await portfolioBatches(t.app.ctx).next()).value ?? [];
      const number = first?.number ?? '';
      const answer = await ask(`Adjust APR to 10% for ${number}`);
      expect(answer.summary).toContain(`on contract ${number}`);
      const payoff = await ask(`payoff for ${number}`);
      expect(payoff.summary).toMatch(
        new RegExp(`Paying off ${number} \\(.+\\) on ${today()} takes \\$[\\d,]+\\.\\d\\d`),
      );
      expect(payoff.details[0]).toMatch(/^Principal: \$[\d,]+\.\d\d\.$/);
      expect((await ask('payoff for CT-999999')).summary).toBe('There is no contract CT-999999.');
    });

    it('reports PAR, overdue contracts and top risks from the portfolio', async () => {
      const par = await ask('What is PAR30?');
      expect(par.summary).toMatch(/^PAR30 is \d+\.\d%\.$/);
      expect(par.details).toEqual([
        expect.stringMatching(
          /^\$1,200\.00 of \$[\d,]+\.\d\d outstanding principal is in contracts more than 30 days past due\.$/,
        ),
        expect.stringMatching(/^Measured over 3 live contracts as of /),
      ]);
      const overdue = await ask('How many contracts are overdue?');
      expect(overdue.summary).toBe('2 contracts of 3 live are overdue.');
      const risks = await ask('top risks');
      expect(risks.summary).toMatch(
        /^The contract most at risk is CT-\d{6} \(Lucy Wanjiru\), 45 days past due\.$/,
      );
      expect(risks.details).toHaveLength(2);
      const rate = await ask('What is our collection rate?');
      expect(rate.summary).toMatch(/^The collection rate for the last 30 days is \d+\.\d%\.$/);
    });
  });
});

describe.each(DATABASE_KINDS)('assistant with a language model on %s', (kind) => {
  let fake: Server;
  let t: TestApp;
  const seen: string[] = [];
  beforeAll(async () => {
    // A local stand-in for an OpenAI-compatible endpoint: it maps one phrasing, refuses another.
    fake = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        const { messages } = JSON.parse(body) as { messages: Array<{ content: string }> };
        const question = messages.at(-1)?.content ?? '';
        seen.push(request.headers.authorization ?? '');
        if (question.includes('broken')) {
          response.writeHead(500).end('oops');
          return;
        }
        const content = question.includes('make it cheaper')
          ? { intent: { kind: 'apr', apr: 12 }, confidence: 0.9 }
          : { intent: { kind: 'unknown' }, confidence: 0 };
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ choices: [{ message: { content: JSON.stringify(content) } }] }));
      });
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const { port } = fake.address() as AddressInfo;
    t = await startTestApp(kind, {
      env: { AI_BASE_URL: `http://127.0.0.1:${port}/v1`, AI_API_KEY: 'test-key' },
    });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => fake.close(resolve));
  });

  it('maps free text through the model only when its own parser is unsure, never taking numbers from it', async () => {
    const agent = await t.signedIn('viewer');
    const mapped = (
      await agent.post('/api/ai/analyze', { query: 'could we make it cheaper for everyone' })
    ).json();
    expect(mapped.confidence).toBe(0.8);
    expect(mapped.assumptions[0]).toMatch(/language model/);
    expect(mapped.summary).toMatch(/no active contracts yet/);
    expect(seen).toEqual(['Bearer test-key']);

    // Understood by the parser: the model is not asked.
    await agent.post('/api/ai/analyze', { query: 'Adjust APR to 19%' });
    expect(seen).toHaveLength(1);

    // The model failing is not the user's problem: the low-confidence answer stands.
    const broken = (await agent.post('/api/ai/analyze', { query: 'this is broken nonsense' })).json();
    expect(broken.confidence).toBeLessThan(0.5);
    expect(broken.suggestions.length).toBeGreaterThan(0);
  });
});

describe.each(DATABASE_KINDS)('assistant on the KES demo book on %s', (kind) => {
  let t: TestApp;
  let viewer: TestClient;
  beforeAll(async () => {
    // The app's own demo book (its year lived once into the template a start loads), on each database.
    t = await startDemoBookApp(kind);
    viewer = await t.signedIn('viewer');
  }, 600_000);
  afterAll(() => t.close());

  const ask = async (query: string) => {
    const response = await viewer.post('/api/ai/analyze', { query });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  /** A short summary: one paragraph, no raw minor-unit figures, every amount in KES. */
  const expectShort = (answer: { summary: string; details: string[] }) => {
    expect(answer.summary.length, answer.summary).toBeLessThan(320);
    expect(answer.summary).not.toContain('\n');
    expect(answer.summary).not.toMatch(/\d{5,}/);
    expect(answer.summary).not.toContain('$');
    expect(answer.summary).toContain('KES\u00a0');
    expect(answer.details.length).toBeLessThanOrEqual(10);
  };

  it('refuses an amount in dollars on a KES book, and offers one in KES that it models', async () => {
    const dollars = await ask('Increase daily payment to $0.50');
    expect(dollars.summary.length).toBeLessThan(200);
    expect(dollars.summary).toMatch(
      /^\$0\.50 is in dollars \(\$\), but your books are in Kenyan Shilling \(KES\), so nothing was modelled\./,
    );
    expect(dollars.impacts).toEqual({ termReduction: 0, interestSavings: 0 });
    expect(dollars.details.join(' ')).toMatch(/typical daily payment is KES\s[\d,]+\.\d\d/);
    const [suggestion] = dollars.suggestions;
    expect(suggestion).toMatch(/^Increase daily payment to KES \d+$/);

    const shillings = await ask(suggestion);
    expectShort(shillings);
    expect(shillings.summary).toMatch(
      /^Setting the daily payment to KES\s[\d,]+\.00 on \d+ contracts? of the active portfolio: (they end|it ends) \d+ days? sooner/,
    );
    expect(shillings.impacts.termReduction).toBeGreaterThan(0);
    expect(shillings.impacts.interestSavings).toBeGreaterThan(0);
    // Weekly and monthly contracts, and daily ones already paying more, are counted, not modelled.
    expect(shillings.summary).toMatch(/\d+ contracts are left out \(see the details\)\.$/);
    expect(shillings.details).toContainEqual(
      expect.stringMatching(/^Left out: \d+ contracts \(not on a daily plan\)\.$/),
    );
  });

  it('leaves out the contracts a payment cannot repay, and counts them', async () => {
    const answer = await ask('Set daily payment to KES 1');
    expectShort(answer);
    // KES 1.00 a day repays almost none of the book: those are left out and counted. A contract
    // nearly repaid may still be modelled (it ends later, at more interest), never saving anything.
    expect(answer.summary).toMatch(
      /^Setting the daily payment to KES\s1\.00 (changes none of the \d+ contracts in the active portfolio \(the details say why\)|on \d+ contracts? of the active portfolio: .+ \d+ contracts are left out \(see the details\))\.$/,
    );
    expect(answer.impacts.termReduction).toBeLessThanOrEqual(0);
    expect(answer.impacts.interestSavings).toBeLessThanOrEqual(0);
    const tooSmall = answer.details.find((line: string) => line.includes('cannot repay them'));
    expect(tooSmall).toMatch(/^Left out: \d+ contracts? \(KES\s1\.00 cannot repay them: /);
  });

  it('models the service discount and the APR quick queries as savings', async () => {
    const discount = await ask('20% service discount for 30 days');
    expectShort(discount);
    expect(discount.summary).toMatch(
      /^A 20% service discount for 30 days on \d+ contracts? of the active portfolio: customers save KES\s[\d,]+\.\d\d in service fees\./,
    );
    expect(discount.details).toContain('Last due dates: unchanged.');
    expect(discount.details).toContainEqual(
      expect.stringMatching(/^Left out: \d+ contracts? \(no service fee due in the next 30 days\)\.$/),
    );

    const apr = await ask('Adjust APR to 19%');
    expectShort(apr);
    expect(apr.summary).toMatch(
      /^Moving the APR to 19% on \d+ contracts of the active portfolio: customers save KES\s[\d,]+\.\d\d in interest( and customers pay KES\s[\d,]+\.\d\d more in service fees)?\./,
    );
    // A fee already paid on a replaced instalment is carried to the new schedule as paid principal
    // (the engine's rule), so the new schedule's fees can exceed what was left of the old one's.
    expect(apr.impacts.interestSavings).toBeGreaterThan(0);
    expect(apr.impacts.termReduction).toBe(0);
  });
});
