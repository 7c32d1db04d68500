// `npm start`: serves the API and the built web app on one port. Builds first when there is no
// build yet, so `npm ci && npm start` works on a fresh clone.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const built = existsSync('dist/server/main.js') && existsSync('dist/web/index.html');
if (!built) {
  console.log('No build found: building the app first (once).');
  const result = spawnSync('npm', ['run', 'build'], {
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
await import('../dist/server/main.js');
