import { randomBytes } from 'node:crypto';
import { ROLES, type Role } from '../../contracts/roles';
import { SYSTEM_ACTOR, writeAudit } from '../audit';
import type { AppContext } from '../context';
import { hashPassword } from '../modules/auth/password';
import { countUsers, insertUser } from '../modules/users/service';
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

/**
 * On an empty database with DEMO_DATA, one user per role (and the owner), each with a random
 * password that is returned here to be printed once and never stored in clear.
 */
export async function seedDemoUsers(ctx: AppContext): Promise<DemoCredential[]> {
  if ((await countUsers(ctx.db)) > 0) return [];
  const wanted: Array<{ key: Role | 'owner'; role: Role; isOwner: boolean }> = [
    { key: 'owner', role: 'admin', isOwner: true },
    ...[...ROLES].reverse().map((role) => ({ key: role, role, isOwner: false })),
  ];
  const credentials: DemoCredential[] = [];
  const rows = await Promise.all(
    wanted.map(async (entry) => {
      const password = randomBytes(9).toString('base64url');
      return { entry, password, passwordHash: await hashPassword(password) };
    }),
  );
  const now = ctx.clock.now();
  // The demo seed is a job: it owns its transaction (decision 011).
  await withTransaction(ctx, async ({ tx }) => {
    for (const { entry, password, passwordHash } of rows) {
      const [firstName, lastName] = DEMO_PEOPLE[entry.key];
      const email = `${entry.key}@demo.example.com`;
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

export function formatCredentials(credentials: DemoCredential[]): string {
  const width = Math.max(...credentials.map((c) => c.email.length));
  const lines = credentials.map(
    (c) => `  ${c.email.padEnd(width)}  ${c.password}  ${c.isOwner ? 'owner (admin)' : c.role}`,
  );
  return ['', 'Demo users (passwords are shown this once; they are stored hashed):', ...lines, ''].join('\n');
}
