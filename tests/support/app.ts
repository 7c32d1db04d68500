import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import type { User } from '../../src/contracts/auth';
import type { Role } from '../../src/contracts/roles';
import { type AppInstance, buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import type { Clock } from '../../src/server/context';
import { hashPassword } from '../../src/server/modules/auth/password';
import { insertUser } from '../../src/server/modules/users/service';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from './databases';

export class MutableClock implements Clock {
  constructor(public ms = Date.now()) {}
  now(): Date {
    return new Date(this.ms);
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

export const TEST_PASSWORD = 'correct horse battery staple';
/**
 * The fixture users' password, hashed with scrypt at N=2^10 instead of the app's 2^15: every
 * sign-in still runs the real verifier (it reads the parameters from the hash), in about 3 ms
 * instead of 100 (the suite signs in well over a thousand times; the fuzz test once per route).
 */
const TEST_SCRYPT = { N: 2 ** 10, r: 8, p: 1 };
let testPasswordHash: Promise<string> | undefined;

export interface TestApp {
  app: AppInstance;
  clock: MutableClock;
  db: TestDatabase;
  /** A new browser-like client with its own cookie jar and its own address. */
  client(ip?: string): TestClient;
  /** Inserts a staff user directly (password TEST_PASSWORD) and returns a client signed in as them. */
  signedIn(role: Role, options?: { isOwner?: boolean; email?: string }): Promise<TestClient & { user: User }>;
  close(): Promise<void>;
}

let addressCounter = 0;
/** Each client gets its own address so throttling in one test never affects another. */
export function nextAddress(): string {
  addressCounter += 1;
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
}

export async function startTestApp(
  kind: DatabaseKind,
  options: {
    env?: Record<string, string>;
    webRoot?: string;
    ready?: boolean;
    /** Run on this database instead of a new one (several instances on one database); it is not dropped at close. */
    shared?: TestDatabase;
  } = {},
): Promise<TestApp> {
  const db = options.shared ?? (await createTestDatabase(kind));
  const dataDir = mkdtempSync(path.join(tmpdir(), 'devicefin-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    DEMO_DATA: 'false',
    LOG_LEVEL: 'silent',
    ...options.env,
  });
  const clock = new MutableClock();
  const app = await buildApp({
    config,
    database: db.database,
    appSecret: 'test-secret-that-is-at-least-32-characters-long',
    clock,
    logger: false,
    webRoot: options.webRoot ?? path.join(dataDir, 'no-web-build'),
  });
  await app.ready();
  app.readiness.ready = options.ready ?? true;
  let emailCounter = 0;
  const testApp: TestApp = {
    app,
    clock,
    db,
    client: (ip) => new TestClient(app, ip ?? nextAddress()),
    signedIn: async (role, signedInOptions = {}) => {
      testPasswordHash ??= hashPassword(TEST_PASSWORD, TEST_SCRYPT);
      emailCounter += 1;
      const email = signedInOptions.email ?? `${role}${emailCounter}@test.example.com`;
      await insertUser(
        app.ctx.db,
        {
          email,
          passwordHash: await testPasswordHash,
          firstName: role[0]?.toUpperCase() + role.slice(1),
          lastName: `Tester${emailCounter}`,
          role,
          isOwner: signedInOptions.isOwner ?? false,
        },
        clock.now(),
      );
      const client = testApp.client();
      const response = await client.post('/api/login', { email, password: TEST_PASSWORD });
      if (response.statusCode !== 200) throw new Error(`Sign-in failed: ${response.body}`);
      return Object.assign(client, { user: response.json<User>() });
    },
    close: async () => {
      await app.close();
      if (!options.shared) await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return testApp;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  headers?: Record<string, string>;
  /** Send the CSRF header (default true for mutating methods). */
  csrf?: boolean;
  /** A raw payload (string) instead of JSON. */
  raw?: string | Buffer;
}

/** A browser-like client over app.inject: keeps cookies, fetches and sends the CSRF token. */
export class TestClient {
  readonly cookies = new Map<string, string>();
  private csrfToken: string | undefined;

  constructor(
    readonly app: AppInstance,
    readonly ip: string,
  ) {}

  async request(
    method: Method,
    url: string,
    body?: unknown,
    options: RequestOptions = {},
  ): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...options.headers };
    const mutating = method !== 'GET';
    if (mutating && (options.csrf ?? true)) headers['x-csrf-token'] = await this.csrf();
    if (this.cookies.size)
      headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    let payload: string | Buffer | undefined;
    if (options.raw !== undefined) {
      payload = options.raw;
    } else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await this.app.inject({
      method,
      url,
      headers,
      remoteAddress: this.ip,
      ...(payload !== undefined ? { payload } : {}),
    });
    for (const cookie of response.cookies as Array<{
      name: string;
      value: string;
      maxAge?: number;
      expires?: Date;
    }>) {
      const expired =
        cookie.maxAge === 0 ||
        (cookie.expires && cookie.expires.getTime() <= Date.now()) ||
        cookie.value === '';
      if (expired) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
      // A new CSRF cookie (sign-in, sign-out) voids the cached token, as in the web client.
      if (cookie.name === 'csrf') this.csrfToken = undefined;
    }
    return response;
  }

  async csrf(): Promise<string> {
    if (!this.csrfToken) {
      const response = await this.request('GET', '/api/csrf-token');
      this.csrfToken = response.json<{ csrfToken: string }>().csrfToken;
    }
    return this.csrfToken;
  }

  get(url: string, options?: RequestOptions) {
    return this.request('GET', url, undefined, options);
  }
  post(url: string, body?: unknown, options?: RequestOptions) {
    return this.request('POST', url, body, options);
  }
  patch(url: string, body?: unknown, options?: RequestOptions) {
    return this.request('PATCH', url, body, options);
  }
  put(url: string, body?: unknown, options?: RequestOptions) {
    return this.request('PUT', url, body, options);
  }
  delete(url: string, body?: unknown, options?: RequestOptions) {
    return this.request('DELETE', url, body, options);
  }
}
