// `npm test`: everything, in order, stopping at the first failure: lockfile, typecheck, lint, build, then
// every Vitest project (unit, web components, server integration on PGlite and on PostgreSQL when
// TEST_DATABASE_URL is set, and the browser suite against the build).
import { spawnSync } from 'node:child_process';

const steps = [
  ['lockfile', 'node', ['scripts/complete-lockfile.mjs', '--check']],
  ['typecheck', 'npx', ['tsc', '--noEmit']],
  ['lint', 'npx', ['biome', 'check', '.']],
  ['build', 'npm', ['run', 'build']],
  ['tests', 'npx', ['vitest', 'run', ...process.argv.slice(2)]],
];

const started = Date.now();
for (const [name, command, args] of steps) {
  const stepStart = Date.now();
  console.log(`\n▶ ${name}`);
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`\n✖ ${name} failed`);
    process.exit(result.status ?? 1);
  }
  console.log(`✔ ${name} (${((Date.now() - stepStart) / 1000).toFixed(1)} s)`);
}
console.log(`\nAll checks passed in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
