// Usage: node scan-checks.mjs RESULTS_DIR LABEL EXPECTED_SCENARIOS
// Reads every checks.json under RESULTS_DIR (one directory per scenario run), prints a line per
// scenario and every FAILURE or WARNING, and exits 1 on any of them, on an empty result, or when
// fewer scenarios reported than were run (one that crashed before writing its results).
import { readdirSync, readFileSync, existsSync, statSync } from 'fs';
import { join } from 'path';
const [root, label = '', expected = '0'] = process.argv.slice(2);
let bad = 0, scenarios = 0;
function walk(dir) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (!statSync(path).isDirectory()) continue;
    const file = join(path, 'checks.json');
    if (existsSync(file)) scan(name, file); else walk(path);
  }
}
function scan(name, file) {
  scenarios++;
  const checks = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(checks) || checks.length === 0) { console.log(`${label} ${name}: no checks`); bad++; return; }
  const count = status => checks.filter(c => c.status === status).length;
  const problems = checks.filter(c => c.status === 'FAILURE' || c.status === 'WARNING');
  console.log(`${label} ${name}: ${count('SUCCESS')} ok, ${count('FAILURE')} failed, ${count('WARNING')} warnings, ${count('SKIPPED')} skipped`);
  for (const c of problems) console.log(`    ${c.status} [${c.id}] ${(c.errorMessage || c.description || '').slice(0, 400)}`);
  bad += problems.length;
}
if (existsSync(root)) walk(root);
if (scenarios < Number(expected)) { console.log(`${label}: ${scenarios} of ${expected} scenarios reported results`); bad++; }
process.exit(bad > 0 ? 1 : 0);
