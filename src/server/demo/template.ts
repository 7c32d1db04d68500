import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { templateKey } from '../../db/template';
import { JOBS } from '../jobs/registry';
import { projectPath } from '../paths';
import type { PortfolioSize } from './portfolio';

/**
 * The demo book is built once into a PGlite template (decision 025) and every fresh start with
 * DEMO_DATA copies it. It is built under this key, not an instance's: the key is public, so a
 * start that loads the book re-keys everything it sealed (the audit chain, OpenPAYGO keys) with
 * its own secret before serving.
 */
export const DEMO_TEMPLATE_SECRET = 'demo-template-build-key (public: a start re-keys what it sealed)';

/** Where the marker of an unopened template lives: a schema of its own, dropped when it is loaded. */
export const DEMO_TEMPLATE_SCHEMA = 'demo_template';

/**
 * The template for this code: named by the migrations, the job queue and the demo's own sources,
 * so a change to any of them builds a new one at the next need. `size` names a smaller book (tests).
 */
export function demoTemplatePath(size?: PortfolioSize): string {
  const directory = projectPath('src/server/demo');
  const sources = readdirSync(directory)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .sort()
    .map((file) => file + readFileSync(path.join(directory, file), 'utf8'));
  const key = templateKey(
    JOBS.map((job) => job.name),
    sources,
  );
  return size
    ? projectPath(`.tmp/demo-template-${key}-${size.customers}-${size.devices}-${size.contracts}.tar.gz`)
    : projectPath(`dist/demo-template-${key}.tar.gz`);
}

/**
 * The template's file, built first when it is absent (minutes on the embedded database). It is
 * built by its own process: the build seals with DEMO_TEMPLATE_SECRET, and a process holds one
 * audit chain key (decision 016).
 */
export async function ensureDemoTemplate(
  log: (message: string) => void,
  size?: PortfolioSize,
): Promise<string> {
  const file = demoTemplatePath(size);
  if (existsSync(file)) return file;
  log(`building the demo book into ${path.relative(projectPath(), file)} once (a few minutes)`);
  const args = [projectPath('node_modules/tsx/dist/cli.mjs'), projectPath('scripts/build-demo-template.ts'), file];
  if (size) args.push(`${size.customers},${size.devices},${size.contracts}`);
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0 || !existsSync(file)) throw new Error(`building the demo template failed (exit ${code})`);
  return file;
}
