// Bundles the server (and the shared contracts and domain code it imports) into one ES module;
// dependencies stay in node_modules. Starting the bundle is much faster than compiling TypeScript at start.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/server/main.ts'],
  outfile: 'dist/server/main.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
console.log('built dist/server/main.js');
