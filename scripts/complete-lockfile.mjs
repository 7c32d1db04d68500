// The npm registry reachable from this workplace answers 404 for other platforms' native
// binaries (e.g. @biomejs/cli-darwin-arm64), so npm leaves them out of package-lock.json, and
// `npm ci` then refuses the lockfile as out of sync. This adds each missing optional platform
// package with its os/cpu/libc constraints: npm skips such entries on other platforms without
// fetching them, so the lockfile is complete and `npm ci` works on a fresh machine.
//   node scripts/complete-lockfile.mjs          add the missing entries
//   node scripts/complete-lockfile.mjs --check  fail if any is missing (run by npm test)
import { readFileSync, writeFileSync } from 'node:fs';

const OS = ['android', 'darwin', 'linux', 'win32', 'freebsd', 'openbsd', 'sunos', 'aix', 'netbsd'];
const CPU = ['arm64', 'x64', 'arm', 'ia32', 'wasm32', 'ppc64', 's390x', 'riscv64', 'loong64', 'mips64el'];

function constraints(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((part) => OS.includes(part));
  const cpu = parts.find((part) => CPU.includes(part));
  const libc = parts.includes('musl')
    ? 'musl'
    : parts.includes('gnu') || parts.includes('gnueabihf')
      ? 'glibc'
      : undefined;
  return { ...(os ? { os: [os] } : {}), ...(cpu ? { cpu: [cpu] } : {}), ...(libc ? { libc: [libc] } : {}) };
}

const check = process.argv.includes('--check');
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
const missing = [];
for (const entry of Object.values(lock.packages)) {
  for (const [dependency, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${dependency}`;
    if (lock.packages[key]) continue;
    const platform = constraints(dependency);
    if (!platform.os && !platform.cpu) continue; // not a platform binary: npm records it itself
    missing.push(dependency);
    lock.packages[key] = { version, ...(entry.dev ? { dev: true } : {}), optional: true, ...platform };
  }
}

if (check) {
  if (missing.length) {
    console.error(
      `package-lock.json lacks ${missing.length} optional platform packages (${missing.join(', ')}).`,
    );
    console.error('npm ci would refuse it on a fresh machine. Run: node scripts/complete-lockfile.mjs');
    process.exit(1);
  }
  console.log('package-lock.json is complete');
} else {
  writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`);
  console.log(missing.length ? `added ${missing.length} entries: ${missing.join(', ')}` : 'nothing to add');
}
