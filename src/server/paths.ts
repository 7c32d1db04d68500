import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project root, found from this module's location: the same answer whether the server runs
 * from source (tsx, vitest) or from the bundle in dist/server.
 */
function findRoot(): string {
  let directory = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(directory, 'package.json'))) {
    const parent = path.dirname(directory);
    if (parent === directory) return process.cwd();
    directory = parent;
  }
  return directory;
}

const root = findRoot();

export function projectPath(...segments: string[]): string {
  return path.join(root, ...segments);
}
