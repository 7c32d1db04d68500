import { and, eq, ne, sql } from 'drizzle-orm';
import type { Role } from '../contracts/roles';
import type { Db } from '../db/client';
import { sessions, users } from '../db/schema';
import type { Clock, Executor } from './context';
import type { InvalidationBus } from './invalidation';
import { randomToken, sha256 } from './secrets';

export interface SessionUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  isOwner: boolean;
}

export interface ActiveSession {
  /** SHA-256 of the cookie token. */
  id: string;
  user: SessionUser;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
}

export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
}

/** Cached lookups spare the database on every request; invalidation reaches all instances (InvalidationBus). */
const CACHE_TTL_MS = 30_000;
const CACHE_MAX_ENTRIES = 20_000;
/** last_seen_at is written at most this often per session, not on every request. */
const TOUCH_INTERVAL_MS = 60_000;

interface CacheEntry {
  session: ActiveSession;
  loadedAt: number;
}

export class SessionStore {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly policy: SessionPolicy,
    private readonly bus: InvalidationBus,
  ) {
    bus.on('session', (id) => this.cache.delete(id));
    bus.on('user', (userId) => {
      for (const [id, entry] of this.cache) if (entry.session.user.id === userId) this.cache.delete(id);
    });
  }

  /** Creates a session and returns the cookie token (only its hash is stored). */
  async create(
    executor: Executor,
    userId: string,
    meta: { ip?: string; userAgent?: string },
  ): Promise<string> {
    const token = randomToken(32);
    const now = this.clock.now();
    await executor.insert(sessions).values({
      id: sha256(token),
      userId,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + this.policy.absoluteMs),
      ip: meta.ip ?? null,
      userAgent: meta.userAgent?.slice(0, 500) ?? null,
    });
    return token;
  }

  /** The live session for a cookie token, or null when unknown, expired or the user is inactive. */
  async resolve(token: string): Promise<ActiveSession | null> {
    const id = sha256(token);
    const nowMs = this.clock.now().getTime();
    const cached = this.cache.get(id);
    let session =
      cached && nowMs - cached.loadedAt < CACHE_TTL_MS ? cached.session : await this.load(id, nowMs);
    if (!session) return null;
    if (this.expired(session, nowMs) && cached) {
      // The cached last_seen_at may be older than the database's (another instance touched it).
      session = await this.load(id, nowMs);
      if (!session) return null;
    }
    if (this.expired(session, nowMs)) {
      await this.revoke(id);
      return null;
    }
    if (nowMs - session.lastSeenAt.getTime() >= TOUCH_INTERVAL_MS) {
      session.lastSeenAt = new Date(nowMs);
      await this.db.update(sessions).set({ lastSeenAt: session.lastSeenAt }).where(eq(sessions.id, id));
    }
    return session;
  }

  async revoke(id: string, executor: Executor = this.db): Promise<void> {
    await executor.delete(sessions).where(eq(sessions.id, id));
    await this.bus.publish(executor, 'session', id);
  }

  /** Ends every session of a user, optionally keeping one (sign out other sessions). */
  async revokeUser(userId: string, executor: Executor = this.db, keepSessionId?: string): Promise<void> {
    await executor
      .delete(sessions)
      .where(
        keepSessionId
          ? and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId))
          : eq(sessions.userId, userId),
      );
    await this.bus.publish(executor, 'user', userId);
  }

  /** The user's name, role or status changed: cached copies must be dropped everywhere. */
  async userChanged(userId: string, executor: Executor = this.db): Promise<void> {
    await this.bus.publish(executor, 'user', userId);
  }

  async purgeExpired(): Promise<number> {
    const now = this.clock.now();
    const idleCutoff = new Date(now.getTime() - this.policy.idleMs);
    const removed = await this.db
      .delete(sessions)
      .where(sql`${sessions.expiresAt} <= ${now} OR ${sessions.lastSeenAt} <= ${idleCutoff}`)
      .returning({ id: sessions.id });
    return removed.length;
  }

  private expired(session: ActiveSession, nowMs: number): boolean {
    return nowMs >= session.expiresAt.getTime() || nowMs - session.lastSeenAt.getTime() >= this.policy.idleMs;
  }

  private async load(id: string, nowMs: number): Promise<ActiveSession | null> {
    const [row] = await this.db
      .select({
        id: sessions.id,
        createdAt: sessions.createdAt,
        lastSeenAt: sessions.lastSeenAt,
        expiresAt: sessions.expiresAt,
        userId: users.id,
        email: users.email,
        firstName: users.firstName,
        lastName: users.lastName,
        role: users.role,
        isOwner: users.isOwner,
      })
      .from(sessions)
      .innerJoin(users, and(eq(users.id, sessions.userId), eq(users.active, true)))
      .where(eq(sessions.id, id))
      .limit(1);
    if (!row) {
      this.cache.delete(id);
      return null;
    }
    const session: ActiveSession = {
      id: row.id,
      createdAt: row.createdAt,
      lastSeenAt: row.lastSeenAt,
      expiresAt: row.expiresAt,
      user: {
        id: row.userId,
        email: row.email,
        firstName: row.firstName,
        lastName: row.lastName,
        role: row.role,
        isOwner: row.isOwner,
      },
    };
    if (this.cache.size >= CACHE_MAX_ENTRIES) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.set(id, { session, loadedAt: nowMs });
    return session;
  }
}
