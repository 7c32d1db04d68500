import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as wait } from 'node:timers/promises';
import { templateKey } from '../../db/template';
import { JOBS } from '../jobs/registry';
import { projectPath } from '../paths';
import { takeBuildLock } from './build-lock';
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

/** The demo template's two files: the PGlite dump, and its rows as JSON for a copy. */
export interface DemoTemplate {
  dump: string;
  rows: string;
}

/**
 * The code that writes the demo book: the demo's own sources, and every module its year of
 * payments and closes runs through (a change to the close's snapshot changes the book as surely
 * as a change to the demo's plan does), with the engine and the database code.
 */
const BOOK_SOURCES = ['src/server', 'src/domain', 'src/db', 'src/contracts'];

function sourcesUnder(directory: string): string[] {
  return readdirSync(projectPath(directory), { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => {
      const file = `${directory}/${entry.name}`;
      if (entry.isDirectory()) return sourcesUnder(file);
      return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')
        ? [file + readFileSync(projectPath(file), 'utf8')]
        : [];
    });
}

/**
 * The template for this code: named by the migrations, the job queue and the sources that write
 * the book, so a change to any of them builds a new one at the next need. `size` names a smaller book.
 */
export function demoTemplateFiles(size?: PortfolioSize): DemoTemplate {
  const sources = BOOK_SOURCES.flatMap(sourcesUnder);
  const key = templateKey(
    JOBS.map((job) => job.name),
    sources,
  );
  const name = size
    ? `.tmp/demo-template-${key}-${size.customers}-${size.devices}-${size.contracts}`
    : `dist/demo-template-${key}`;
  return { dump: projectPath(`${name}.tar.gz`), rows: projectPath(`${name}.rows.gz`) };
}

/**
 * The template's files, built first when they are absent (minutes on the embedded database). It
 * is built by its own process: the build seals with DEMO_TEMPLATE_SECRET, and a process holds one
 * audit chain key (decision 016). One build at a time per template: a second caller (another
 * instance starting, another test file) waits for the first's files instead of building them again.
 */
export async function ensureDemoTemplate(
  log: (message: string) => void,
  size?: PortfolioSize,
): Promise<DemoTemplate> {
  const files = demoTemplateFiles(size);
  mkdirSync(path.dirname(files.dump), { recursive: true });
  let waiting = false;
  for (;;) {
    if (built(files)) return files;
    const lock = takeBuildLock(`${files.dump}.lock`);
    if (lock) {
      try {
        if (!built(files)) await build(files, log, size);
      } finally {
        lock();
      }
      return files;
    }
    // Another process is building it: its files appear, or its lock goes (then build it here).
    if (!waiting) log(`waiting for another process building ${path.relative(projectPath(), files.dump)}`);
    waiting = true;
    await wait(BUILD_POLL_MS);
  }
}

/** Both of a template's files are there (each is written under another name, then renamed). */
function built(files: DemoTemplate): boolean {
  return existsSync(files.dump) && existsSync(files.rows);
}

/** How often a caller waiting for another process's build looks for its files. */
const BUILD_POLL_MS = 500;

async function build(
  files: DemoTemplate,
  log: (message: string) => void,
  size?: PortfolioSize,
): Promise<void> {
  log(`building the demo book into ${path.relative(projectPath(), files.dump)} once (a few minutes)`);
  // The files named here, not by the script from the sources as it finds them: a source edited
  // meanwhile would have it build another key's files and leave these absent.
  const args = [
    projectPath('node_modules/tsx/dist/cli.mjs'),
    projectPath('scripts/build-demo-template.ts'),
    files.dump,
  ];
  if (size) args.push(`${size.customers},${size.devices},${size.contracts}`);
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0 || !built(files)) {
    throw new Error(`building the demo template failed (exit ${code})`);
  }
}
