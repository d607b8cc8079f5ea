// Bundles src/main.js into one minified ES module (dist/app.js, committed and
// embedded by web.go). Usage: node build.mjs [OUTFILE]. Deterministic: the
// same sources and lockfile give the same bytes (web_test.go checks it).
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const outfile = process.argv[2] ?? 'dist/app.js';
await build({
  entryPoints: ['src/main.js'],
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  legalComments: 'eof', // three.js's MIT notice stays in the bundle
  charset: 'utf8',
  outfile,
  absWorkingDir: fileURLToPath(new URL('.', import.meta.url)),
  logLevel: 'warning',
});
