import { request } from 'node:http';

/**
 * A request that may take many minutes (a close of business over a million contracts on a slow
 * machine; moving the business date closes the days it skips): Node's fetch gives up waiting for
 * the headers after 300 s, node:http never does.
 */
export function longRequest(
  method: 'POST' | 'PUT',
  url: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; json: () => unknown }> {
  const text = JSON.stringify(body);
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method,
        headers: { ...headers, 'content-length': Buffer.byteLength(text) },
      },
      (res) => {
        let answer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          answer += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: () => JSON.parse(answer) }));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}
