import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import helmet from 'helmet';
import type { Database } from '../db/client';
import { setAuditChainKey } from './audit';
import { AuditSealer } from './audit-sealer';
import type { Config } from './config';
import { type AppContext, type Clock, systemClock } from './context';
import { AppError } from './errors';
import { resolveGuestSession } from './guest-sessions';
import { InvalidationBus } from './invalidation';
import { JobQueue } from './jobs/queue';
import { JOBS } from './jobs/registry';
import { logSerializers } from './logging';
import { activityRoutes } from './modules/activity/routes';
import { assistantRoutes } from './modules/assistant/routes';
import { auditRoutes } from './modules/audit/routes';
import { authRoutes } from './modules/auth/routes';
import { calculatorRoutes } from './modules/calculator/routes';
import { closeOfBusinessRoutes } from './modules/close-of-business/routes';
import { collectionRoutes } from './modules/collections/routes';
import { contractRoutes } from './modules/contracts/routes';
import { conversationRoutes } from './modules/conversations/routes';
import { conversationWebhookRoutes } from './modules/conversations/webhooks/routes';
import { customerRoutes } from './modules/customers/routes';
import { demoContentRoutes } from './modules/demo-content/routes';
import { deviceControlRoutes } from './modules/devices/control/routes';
import { deviceRoutes } from './modules/devices/routes';
import { healthRoutes } from './modules/health/routes';
import { helpRoutes } from './modules/help/routes';
import { investorRoutes } from './modules/investor/routes';
import { jobRoutes } from './modules/jobs/routes';
import { ledgerRoutes } from './modules/ledger/routes';
import { deliveryRoutes } from './modules/messages/delivery-routes';
import { messageRoutes } from './modules/messages/routes';
import { notificationRoutes } from './modules/notifications/routes';
import { autoDebitRoutes } from './modules/payments/auto-debit/routes';
import { paymentImportRoutes } from './modules/payments/import-routes';
import { mobileMoneyRoutes } from './modules/payments/mobile-money/routes';
import { paymentRoutes } from './modules/payments/routes';
import { planRoutes } from './modules/plans/routes';
import { portalRoutes } from './modules/portal/routes';
import { profileRoutes } from './modules/profile/routes';
import { recoveryRoutes } from './modules/recoveries/routes';
import { settingsRoutes } from './modules/settings/routes';
import { taskRoutes } from './modules/tasks/routes';
import { userRoutes } from './modules/users/routes';
import { projectPath } from './paths';
import { checkAccess, type RouteEntry, registerAccessRules } from './plugins/access';
import { checkCsrf } from './plugins/csrf';
import { registerErrorHandling } from './plugins/errors';
import { responseSerializerCompiler } from './plugins/response-serializer';
import { resolveSession } from './plugins/session';
import { registerTextInputCheck } from './plugins/text-input';
import { registerWebApp } from './plugins/web-app';
import { Keyring } from './secrets';
import { SessionStore } from './sessions';
import { fileStorage } from './storage';

export type AppInstance = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
    readiness: { ready: boolean };
    routeTable: RouteEntry[];
    /** The background job queue; started by main.ts (tests start it only when they need it). */
    jobs: JobQueue;
    /** Chains the audit rows written unsealed, within a second (decision 023); runs on every app. */
    auditSealer: AuditSealer;
  }
}

export interface BuildOptions {
  config: Config;
  database: Database;
  appSecret: string;
  clock?: Clock;
  /** Where the built web app lives; defaults to dist/web. */
  webRoot?: string;
  logger?: boolean | { level: string };
}

/** Every module's routes, in one list, so the route table (and its tests) see them all. */
const MODULES = [
  healthRoutes,
  authRoutes,
  userRoutes,
  profileRoutes,
  settingsRoutes,
  notificationRoutes,
  activityRoutes,
  helpRoutes,
  auditRoutes,
  jobRoutes,
  closeOfBusinessRoutes,
  calculatorRoutes,
  assistantRoutes,
  planRoutes,
  customerRoutes,
  deviceRoutes,
  deviceControlRoutes,
  contractRoutes,
  paymentRoutes,
  paymentImportRoutes,
  mobileMoneyRoutes,
  ledgerRoutes,
  autoDebitRoutes,
  messageRoutes,
  deliveryRoutes,
  collectionRoutes,
  recoveryRoutes,
  conversationRoutes,
  conversationWebhookRoutes,
  taskRoutes,
  portalRoutes,
  investorRoutes,
  demoContentRoutes,
];

export async function buildApp(options: BuildOptions): Promise<AppInstance> {
  const { config, database } = options;
  const clock = options.clock ?? systemClock;
  const app = Fastify({
    logger: options.logger ?? {
      level: config.LOG_LEVEL,
      serializers: logSerializers,
      // A person at a terminal reads lines; anything else (a file, a log collector) gets JSON.
      ...(process.stdout.isTTY
        ? {
            transport: {
              target: 'pino-pretty',
              options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' },
            },
          }
        : {}),
    },
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    genReqId: () => crypto.randomUUID(),
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  }).withTypeProvider<ZodTypeProvider>();

  // The API speaks JSON only (uploads add multipart where needed): anything else is a 415.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);

  const keyring = new Keyring(options.appSecret);
  setAuditChainKey(keyring);
  const bus = new InvalidationBus();
  await bus.start(database, app.log);
  const sessions = new SessionStore(
    database.db,
    clock,
    { idleMs: config.SESSION_IDLE_MINUTES * 60_000, absoluteMs: config.SESSION_ABSOLUTE_HOURS * 3600_000 },
    bus,
  );
  app.decorate('ctx', { config, database, db: database.db, keyring, clock, sessions, bus, log: app.log });
  app.decorate('readiness', { ready: false });
  app.decorateRequest('session', null);
  app.decorateRequest('customerSession', null);
  app.decorateRequest('investorSession', null);
  app.decorate('jobs', new JobQueue(app.ctx, JOBS));
  // Audit rows are written unsealed and chained by this loop within a second (decision 023).
  app.decorate('auditSealer', new AuditSealer(database.db, app.log, { isReady: () => app.readiness.ready }));
  app.auditSealer.start();
  const leftovers = await fileStorage(app.ctx).removeLeftovers();
  if (leftovers) app.log.warn({ removed: leftovers }, 'removed upload files a crash left half-written');
  // Jobs stop before the bus and the database they use; the sealer after the jobs that write; the
  // bus last, sending what commits left pending.
  app.addHook('onClose', async () => {
    await app.jobs.stop();
    await app.auditSealer.stop();
    await bus.stop();
  });

  registerErrorHandling(app);
  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  registerAccessRules(app, routeTable);

  // Security headers on every answer. Built once: @fastify/helmet built the middleware again for
  // every request (its CSP directives parsed each time, 3 % of a payment's server CPU).
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    // Served over plain HTTP on a LAN by default; HSTS belongs to the TLS-terminating proxy.
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', (request, reply, done) =>
    securityHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined)),
  );
  await app.register(fastifyCookie);
  await app.register(fastifyRateLimit, { global: false });

  // Order matters: readiness, then who is calling, then CSRF, then whether they may.
  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access;
    if (!access) return;
    if (!app.readiness.ready && request.url !== '/api/health') {
      throw new AppError(503, 'STARTING', 'The server is starting; try again in a moment');
    }
    await resolveSession(request, sessions);
    await resolveGuestSession(app.ctx, request);
    checkCsrf(request, keyring);
    checkAccess(request);
  });
  registerTextInputCheck(app);
  // API answers carry personal and financial data: no browser or proxy may keep a copy (a route
  // that sets its own policy, such as a document's `private, no-store`, keeps it).
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control'))
      reply.header('cache-control', 'no-store');
    return payload;
  });

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Device financing API',
        version: '1.0.0',
        description: 'Money values are integers of minor units.',
      },
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'sid' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  for (const module of MODULES) await module(app);
  await registerWebApp(app, options.webRoot ?? projectPath('dist/web'));
  return app;
}
