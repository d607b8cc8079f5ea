// Validates glTF files with the Khronos glTF validator (npm gltf-validator).
// Usage: node .ci/validate-gltf.mjs FILE...
// Prints one line per file with its error/warning/info counts, then every
// error message; exits 1 when any file has an error.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const validator = require('gltf-validator');

let failed = false;
for (const file of process.argv.slice(2)) {
  const data = await readFile(file);
  const report = await validator.validateBytes(new Uint8Array(data), { uri: file, maxIssues: 100 });
  const { numErrors, numWarnings, numInfos } = report.issues;
  console.log(`${file}: ${numErrors} errors, ${numWarnings} warnings, ${numInfos} infos`);
  for (const m of report.issues.messages) {
    if (m.severity <= 1) console.log(`  ${m.severity === 0 ? 'error' : 'warning'} ${m.code}: ${m.message} (${m.pointer ?? ''})`);
  }
  if (numErrors > 0) failed = true;
}
process.exit(failed ? 1 : 0);
