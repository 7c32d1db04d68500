import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Decision 013: the web calls the API only through the typed client (`api`, `apiOrNull`,
 * `apiUploadTo`, `endpointUrl` in src/web/lib/api.ts), so every address, parameter and answer is
 * the one described in src/contracts. No page or feature builds an `/api/...` address by hand
 * (the OpenAPI page, /api/docs, is a page for people, not an endpoint).
 */
const WEB = path.resolve(__dirname, '..');
/** The client itself, and the query keys (URL-shaped by the seed's default query function). */
const ALLOWED = new Set(['lib/api.ts', 'lib/queryClient.ts', 'lib/query-keys.ts']);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'test' ? [] : sources(full);
    const test = /\.test\.tsx?$|test-|fixtures/.test(name);
    return /\.tsx?$/.test(name) && !test ? [full] : [];
  });
}

describe('how the web calls the API', () => {
  it('goes through the typed client: no hand-built /api addresses or raw requests outside src/web/lib', () => {
    const offences: string[] = [];
    for (const file of sources(WEB)) {
      const relative = path.relative(WEB, file);
      if (ALLOWED.has(relative)) continue;
      const code = readFileSync(file, 'utf8')
        .split('\n')
        // Comments may name an endpoint.
        .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line));
      code.forEach((line, index) => {
        if (/['"`]\/api\/(?!docs\b)/.test(line) || /\b(apiRequest|apiUpload|apiJson)\(/.test(line))
          offences.push(`${relative}:${index + 1}: ${line.trim()}`);
      });
    }
    expect(offences).toEqual([]);
  });
});
