import { spawn } from 'node:child_process';

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/**
 * Drives load from a separate process (the autocannon CLI), so the load generator never shares
 * the server's event loop.
 */
export function loadTest(options: {
  url: string;
  seconds?: number;
  connections?: number;
  headers?: Record<string, string>;
}): Promise<LoadResult> {
  const args = [
    'node_modules/autocannon/autocannon.js',
    '--json',
    '-d',
    String(options.seconds ?? 10),
    '-c',
    String(options.connections ?? 50),
  ];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}=${value}`);
  args.push(options.url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon failed (${code}): ${stderr}`));
      const result = JSON.parse(stdout) as {
        requests: { average: number };
        latency: { p50: number; p99: number };
        errors: number;
        non2xx: number;
      };
      resolve({
        requestsPerSecond: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors: result.errors,
        non2xx: result.non2xx,
      });
    });
  });
}
