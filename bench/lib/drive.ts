import { Agent, request } from 'node:http';

export interface DriveResult {
  count: number;
  errors: number;
  perSecond: number;
  p50: number;
  p99: number;
  firstError?: string;
}

/**
 * Sends POSTs with a body per request from `connections` concurrent clients for `seconds`
 * (optionally capped at `rate` requests per second overall), and measures each answer's latency.
 * The server runs in its own process, so this loop never shares its event loop.
 */
export async function drive(options: {
  url: string;
  headers: Record<string, string>;
  connections: number;
  seconds: number;
  rate?: number;
  body: (i: number) => unknown;
  ok?: (status: number) => boolean;
}): Promise<DriveResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const target = new URL(options.url);
  const post = (body: string) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          path: target.pathname + target.search,
          method: 'POST',
          headers: { ...options.headers, 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => {
            text += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let sent = 0;
  const ok = options.ok ?? ((status: number) => status >= 200 && status < 300);
  const started = performance.now();
  const until = started + options.seconds * 1000;
  const interval = options.rate ? (1000 * options.connections) / options.rate : 0;
  const client = async () => {
    let next = performance.now();
    while (performance.now() < until) {
      if (interval) {
        const wait = next - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        next += interval;
      }
      const i = sent++;
      const t0 = performance.now();
      const response = await post(JSON.stringify(options.body(i)));
      latencies.push(performance.now() - t0);
      if (!ok(response.status)) {
        errors += 1;
        firstError ??= `${response.status} ${response.text.slice(0, 300)}`;
      }
    }
  };
  await Promise.all(Array.from({ length: options.connections }, client));
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    count: latencies.length,
    errors,
    perSecond: latencies.length / elapsed,
    p50: at(0.5),
    p99: at(0.99),
    ...(firstError ? { firstError } : {}),
  };
}
