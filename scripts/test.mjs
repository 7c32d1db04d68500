// `npm test`: everything, stopping at the first failure: lockfile, then typecheck beside lint and
// build (two lanes on the two cores; the typecheck runs single-threaded, its least CPU), then
// every Vitest project (unit, web components, server integration on PGlite and on PostgreSQL when
// TEST_DATABASE_URL is set, and the browser suite against the build).
import { spawn } from 'node:child_process';

/** Runs one step, its output held back and printed whole once it ends (lanes run side by side). */
function run([name, command, args], { live = false } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    if (live) console.log(`\n▶ ${name}`);
    const child = spawn(command, args, { stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout?.on('data', (chunk) => output.push(chunk));
    child.stderr?.on('data', (chunk) => output.push(chunk));
    child.on('close', (code) => {
      if (!live) console.log(`\n▶ ${name}`);
      if (output.length) process.stdout.write(Buffer.concat(output));
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      if (code === 0) console.log(`✔ ${name} (${seconds} s)`);
      else console.error(`\n✖ ${name} failed (${seconds} s)`);
      resolve(code ?? 1);
    });
  });
}

/** Steps one after another; answers the first failure's exit code, or 0. */
async function inOrder(steps) {
  for (const step of steps) {
    const code = await run(step);
    if (code !== 0) return code;
  }
  return 0;
}

const started = Date.now();
const books = buildBooksMeanwhile();
const fail = (code) => {
  if (code !== 0) {
    books?.kill();
    process.exit(code);
  }
};
fail(await run(['lockfile', 'node', ['scripts/complete-lockfile.mjs', '--check']]));
const lanes = await Promise.all([
  run(['typecheck', 'npx', ['tsc', '--noEmit', '--singleThreaded']]),
  inOrder([
    ['lint', 'npx', ['biome', 'check', '.']],
    ['build', 'npm', ['run', 'build']],
  ]),
]);
fail(lanes.find((code) => code !== 0) ?? 0);
fail(await run(['tests', 'npx', ['vitest', 'run', ...process.argv.slice(2)]], { live: true }));
books?.kill();
console.log(`\nAll checks passed in ${((Date.now() - started) / 1000).toFixed(0)} s.`);

/**
 * A whole run (no file named) builds the demo books its last files load in a process of its own,
 * from the start (decision 047), and the files that load a book wait for its files (the build lock)
 * if it is not done. Detached, it runs in a session of its own, and this kernel shares the CPU
 * between sessions first (autogroup scheduling), so `nice` here orders only its own processes: the
 * book takes up to half the machine and is built within the first minutes. Held to what the suite
 * leaves idle (its session's nice value at 19), it was built only after the other files, which then
 * waited two to three minutes for it (decision 040, stop 44).
 * Its output is printed only if it fails; a test that needs its book then builds it again, loudly.
 */
function buildBooksMeanwhile() {
  if (process.argv.length > 2) return null;
  // Its own process group (detached), so a stop takes the build it spawned with it.
  const child = spawn(
    'nice',
    ['-n', '10', process.execPath, 'node_modules/tsx/dist/cli.mjs', 'scripts/build-suite-templates.ts'],
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  const output = [];
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  child.on('close', (code, signal) => {
    if (code !== 0 && signal === null) {
      console.error('\n✖ building the demo books in the background failed:');
      process.stderr.write(Buffer.concat(output));
    }
  });
  return {
    kill: () => {
      try {
        if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    },
  };
}
