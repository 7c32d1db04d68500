// Finance engine benchmarks (pure CPU, no build or database needed):
//   npx tsx -e "import('./bench/engine.ts').then(async m => console.log(await m.engineBenchmarks()))"
import {
  allocatePayment,
  buildSchedule,
  decodeToken,
  encodeToken,
  positionsFromSchedule,
  runPortfolioScenario,
  type ScenarioContract,
  type ScheduleInput,
} from '../src/domain/index';
import type { Measurement } from './lib/report';

const PLANS: readonly { apr: number | string; method: 'declining' | 'flat' }[] = [
  { apr: 36, method: 'declining' },
  { apr: '19.99', method: 'declining' },
  { apr: 24, method: 'flat' },
  { apr: 48, method: 'declining' },
  { apr: 0, method: 'declining' },
  { apr: '29.5', method: 'flat' },
];

function weeklyInput(i: number): ScheduleInput {
  const plan = PLANS[i % PLANS.length] ?? { apr: 36, method: 'declining' };
  return {
    principal: 20_000 + ((i * 7919) % 500_000),
    apr: plan.apr,
    frequency: 'weekly',
    term: 52,
    method: plan.method,
    startDate: '2025-03-15',
    serviceFeePerPeriod: 50,
    installmentMultiple: i % 3 === 0 ? 100 : 0,
  };
}

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

/** Time `runs` repetitions of `fn`, returning each duration in ms. */
function timeRuns(runs: number, fn: () => void): number[] {
  const out: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    fn();
    out.push(performance.now() - t);
  }
  return out;
}

let sink = 0;

export async function engineBenchmarks(): Promise<Measurement[]> {
  const out: Measurement[] = [];

  // 1. 100,000 weekly schedules of 52 instalments (mixed plans, principals, multiples).
  const cold = performance.now();
  sink += buildSchedule(weeklyInput(1)).totals.totalPayable;
  const firstCallMs = performance.now() - cold;
  for (let i = 0; i < 10_000; i++) sink += buildSchedule(weeklyInput(i)).totals.totalPayable;
  const weekly = timeRuns(3, () => {
    for (let i = 0; i < 100_000; i++) sink += buildSchedule(weeklyInput(i)).rows.length;
  });
  out.push({
    name: 'schedules: 100,000 x 52 weekly instalments',
    value: median(weekly),
    unit: 'ms',
    budget: { limit: 2000, kind: 'max' },
    note: `median of 3 (${weekly.map((v) => Math.round(v)).join(' / ')} ms) = ${(median(weekly) / 100).toFixed(1)} µs per schedule`,
  });

  // 2. One 3,660-instalment daily schedule; each run a different APR so no cached annuity helps.
  const daily = (k: number) =>
    buildSchedule({
      principal: 5_000_000 + k,
      apr: `${18 + k / 100}`,
      frequency: 'daily',
      term: 3660,
      method: k % 2 ? 'flat' : 'declining',
      startDate: '2025-01-31',
      serviceFeePerPeriod: 10,
    });
  const dailyCold = performance.now();
  sink += daily(0).rows.length;
  const dailyFirst = performance.now() - dailyCold;
  let k = 1;
  const dailyRuns = timeRuns(41, () => {
    sink += daily(k++).rows.length;
  });
  out.push({
    name: 'schedule: 3,660 daily instalments',
    value: median(dailyRuns),
    unit: 'ms',
    budget: { limit: 5, kind: 'max' },
    note: `median of 41, max ${Math.max(...dailyRuns).toFixed(2)} ms; very first call ${dailyFirst.toFixed(1)} ms (JIT warm-up)`,
  });
  out.push({ name: 'schedule: first call in a fresh process (52 weekly)', value: firstCallMs, unit: 'ms' });

  // 3. Allocation of one payment on a 52-instalment contract.
  const rows = buildSchedule(weeklyInput(2)).rows;
  const positions = positionsFromSchedule(rows);
  const allocations = timeRuns(1, () => {
    for (let i = 0; i < 20_000; i++) {
      sink += allocatePayment(positions, 1000 + i, '2025-06-01').lines.length;
    }
  });
  out.push({
    name: 'allocation: one payment, 52 instalments',
    value: ((allocations[0] ?? 0) * 1000) / 20_000,
    unit: 'µs',
  });

  // 4. OpenPAYGO tokens.
  const device = { secretKey: 'bc41ec9530f6dac86b1a29ab82edc5fb', startingCode: 516959010 };
  const tokens = timeRuns(1, () => {
    for (let i = 0; i < 2_000; i++) {
      const t = encodeToken({ ...device, count: 40, type: 'ADD_TIME', value: (i % 995) + 1 });
      const d = decodeToken(t.token, { ...device, lastCount: 40 });
      if (d.status === 'valid') sink += d.count;
    }
  });
  out.push({
    name: 'OpenPAYGO: encode + decode at count 42',
    value: ((tokens[0] ?? 0) * 1000) / 2_000,
    unit: 'µs',
  });

  // 5. A portfolio scenario (assistant: "Adjust APR to 19%") over 10,000 weekly contracts.
  const contracts: ScenarioContract[] = Array.from({ length: 10_000 }, (_, i) => {
    const input = weeklyInput(i);
    const s = buildSchedule(input);
    return {
      id: `C-${i}`,
      startDate: input.startDate,
      apr: input.apr,
      frequency: input.frequency,
      method: input.method,
      installmentMultiple: input.installmentMultiple ?? 0,
      installment: s.totals.installment,
      installments: positionsFromSchedule(s.rows),
    };
  });
  const portfolio = timeRuns(1, () => {
    sink += runPortfolioScenario(contracts, { kind: 'apr', apr: 19 }, '2025-06-01').totals.interestSavings;
  });
  out.push({ name: 'scenario: APR change over 10,000 contracts', value: portfolio[0] ?? 0, unit: 'ms' });

  if (sink === Number.MIN_SAFE_INTEGER) console.log(sink);
  return out;
}
