// `npm run bench`: every performance budget of ARCHITECTURE.md that has been built so far,
// measured against the built app (`npm run build` first). Prints a table with PASS/FAIL.
import { existsSync } from 'node:fs';
import { bulkSendBenchmarks } from './bulk-send';
import { closeOfBusinessBenchmarks } from './close-of-business';
import { collectionsQueueBenchmarks } from './collections-queue';
import { contractBenchmarks } from './contracts';
import { engineBenchmarks } from './engine';
import { inboundWebhookBenchmarks } from './inbound-webhook';
import { investorBenchmarks } from './investor';
import { failed, type Measurement, printTable } from './lib/report';
import { originationBenchmarks } from './origination';
import { outboxBenchmarks } from './outbox';
import { paymentBenchmarks } from './payments';
import { platformBenchmarks } from './platform';

const SUITES: Record<string, () => Promise<Measurement[]>> = {
  platform: platformBenchmarks,
  engine: engineBenchmarks,
  origination: originationBenchmarks,
  contracts: contractBenchmarks,
  payments: paymentBenchmarks,
  'close-of-business': closeOfBusinessBenchmarks,
  'collections-queue': collectionsQueueBenchmarks,
  'bulk-send': bulkSendBenchmarks,
  outbox: outboxBenchmarks,
  'inbound-webhook': inboundWebhookBenchmarks,
  investor: investorBenchmarks,
};

if (!existsSync('dist/server/main.js') || !existsSync('dist/web/index.html')) {
  console.error('No build found: run "npm run build" first.');
  process.exit(1);
}

const wanted = process.argv.slice(2);
const all: Measurement[] = [];
for (const [name, suite] of Object.entries(SUITES)) {
  if (wanted.length && !wanted.includes(name)) continue;
  console.log(`\n== ${name}`);
  const measurements = await suite();
  printTable(measurements);
  all.push(...measurements);
}
const misses = failed(all);
console.log(misses.length ? `\n${misses.length} budget(s) missed.` : '\nAll budgets met.');
process.exitCode = misses.length ? 1 : 0;
