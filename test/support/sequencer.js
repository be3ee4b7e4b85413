/**
 * jest's test sequencer with a memory that a fresh clone has too. jest runs the longest files first when
 * its cache knows their durations, and by file size when it does not, as on CI's clean clone: there a
 * long file started late leaves a worker idle for its whole tail. test/durations.json holds each file's
 * seconds from a recorded run of `npm test` (its first pass, and the strict pass apart), and stands in
 * for the cache where the cache has nothing. It only orders the files: a stale or missing figure never
 * changes what runs. Recorded by `node test/support/sequencer.js <jest --json output> <first|strict>`.
 */
const fs = require('node:fs');
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const ROOT = path.resolve(__dirname, '..', '..');
const DURATIONS = path.join(ROOT, 'test', 'durations.json');

function recorded() {
  try {
    return JSON.parse(fs.readFileSync(DURATIONS, 'utf8'));
  } catch {
    return {};
  }
}

class RecordedDurationsSequencer extends Sequencer {
  constructor(...args) {
    super(...args);
    const pass = process.env.GAS_HOST_STRICT === '1' ? 'strict' : 'first';
    this.recorded = recorded()[pass] ?? {};
  }

  time(test) {
    const cached = super.time(test);
    if (cached != null) return cached;
    const seconds = this.recorded[path.relative(ROOT, test.path).split(path.sep).join('/')];
    return seconds == null ? undefined : seconds * 1000;
  }
}

module.exports = RecordedDurationsSequencer;

/** A test file's path from the repository's root, wherever the recorded run's clone was. */
function inRepository(file) {
  const parts = file.split(path.sep);
  return parts.slice(parts.lastIndexOf('test')).join('/');
}

if (require.main === module) {
  const [results, pass] = process.argv.slice(2);
  if (!results || !['first', 'strict'].includes(pass)) {
    console.error('usage: node test/support/sequencer.js <jest --json output> <first|strict>');
    process.exit(1);
  }
  const run = JSON.parse(fs.readFileSync(results, 'utf8'));
  const all = recorded();
  all[pass] = Object.fromEntries(
    run.testResults.map((r) => [inRepository(r.name), Math.round((r.endTime - r.startTime) / 100) / 10]).sort((a, b) => b[1] - a[1]),
  );
  fs.writeFileSync(DURATIONS, `${JSON.stringify(all, null, 2)}\n`);
  console.log(`${Object.keys(all[pass]).length} files' durations recorded for the ${pass} pass in ${path.relative(ROOT, DURATIONS)}`);
}
