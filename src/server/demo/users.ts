import { randomBytes } from 'node:crypto';
import { ROLES, type Role } from '../../contracts/roles';
import { SYSTEM_ACTOR, writeAudit } from '../audit';
import type { AppContext } from '../context';
import { hashPassword } from '../modules/auth/password';
import { countUsers, findUserByEmail, insertUser, setPasswordHash } from '../modules/users/service';
import { withTransaction } from '../transaction';

export interface DemoCredential {
  email: string;
  password: string;
  role: Role;
  isOwner: boolean;
}

const DEMO_PEOPLE: Record<Role | 'owner', [string, string]> = {
  owner: ['Grace', 'Owino'],
  admin: ['Samuel', 'Adeyemi'],
  manager: ['Amina', 'Njoroge'],
  finance: ['Peter', 'Mensah'],
  collector: ['Fatuma', 'Hassan'],
  agent: ['Joseph', 'Kamau'],
  viewer: ['Lucy', 'Achieng'],
};

const DEMO_ACCOUNTS: ReadonlyArray<{ key: Role | 'owner'; role: Role; isOwner: boolean }> = [
  { key: 'owner', role: 'admin', isOwner: true },
  ...[...ROLES].reverse().map((role) => ({ key: role, role, isOwner: false })),
];
const demoEmail = (key: Role | 'owner') => `${key}@demo.example.com`;

/** A random password per demo account, and its hash (the only form that is stored). */
function newPasswords() {
  return Promise.all(
    DEMO_ACCOUNTS.map(async (entry) => {
      const password = randomBytes(9).toString('base64url');
      return { entry, password, passwordHash: await hashPassword(password) };
    }),
  );
}

/**
 * On an empty database with DEMO_DATA, one user per role (and the owner), each with a random
 * password that is returned here to be printed once and never stored in clear.
 */
export async function seedDemoUsers(ctx: AppContext): Promise<DemoCredential[]> {
  if ((await countUsers(ctx.db)) > 0) return [];
  const credentials: DemoCredential[] = [];
  const rows = await newPasswords();
  const now = ctx.clock.now();
  // The demo seed is a job: it owns its transaction (decision 011).
  await withTransaction(ctx, async ({ tx }) => {
    for (const { entry, password, passwordHash } of rows) {
      const [firstName, lastName] = DEMO_PEOPLE[entry.key];
      const email = demoEmail(entry.key);
      const user = await insertUser(
        tx,
        { email, passwordHash, firstName, lastName, role: entry.role, isOwner: entry.isOwner },
        now,
      );
      await writeAudit(tx, SYSTEM_ACTOR, {
        action: 'user.demo_seed',
        entityType: 'user',
        entityId: user.id,
        after: { email, role: entry.role, isOwner: entry.isOwner },
      });
      credentials.push({ email, password, role: entry.role, isOwner: entry.isOwner });
    }
  });
  return credentials;
}

/**
 * `npm run demo:users`: the demo passwords are stored hashed, so seeing them again means new
 * ones. Each demo account that exists (`<role>@demo.example.com`; no other account is touched)
 * gets a new random password, its sessions end, and the change is audited. An empty database
 * gets its demo users as at the first start when DEMO_DATA asks for them (`seedEmpty`). A start
 * that loads the demo book from its template gives them their first passwords this way.
 */
export async function resetDemoPasswords(
  ctx: AppContext,
  {
    seedEmpty,
    reason = 'demo passwords reset (npm run demo:users)',
  }: { seedEmpty: boolean; reason?: string },
): Promise<DemoCredential[]> {
  if ((await countUsers(ctx.db)) === 0) return seedEmpty ? seedDemoUsers(ctx) : [];
  const rows = await newPasswords();
  const now = ctx.clock.now();
  return withTransaction(ctx, async ({ tx }) => {
    const credentials: DemoCredential[] = [];
    for (const { entry, password, passwordHash } of rows) {
      const email = demoEmail(entry.key);
      const user = await findUserByEmail(tx, email);
      if (!user) continue;
      await setPasswordHash(tx, user.id, passwordHash, now);
      await ctx.sessions.revokeUser(user.id, tx);
      await writeAudit(tx, SYSTEM_ACTOR, {
        action: 'user.password_change',
        entityType: 'user',
        entityId: user.id,
        after: { reason },
      });
      credentials.push({ email, password, role: user.role, isOwner: user.isOwner });
    }
    return credentials;
  });
}

export function formatCredentials(credentials: DemoCredential[]): string {
  const width = Math.max(...credentials.map((c) => c.email.length));
  const lines = credentials.map(
    (c) => `  ${c.email.padEnd(width)}  ${c.password}  ${c.isOwner ? 'owner (admin)' : c.role}`,
  );
  return ['', 'Demo users (passwords are shown this once; they are stored hashed):', ...lines, ''].join('\n');
}
