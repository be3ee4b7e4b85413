#!/usr/bin/env node
/**
 * Checks, before anything is installed, that this Node.js is one package.json's `engines.node` accepts,
 * and says which to install when it is not (`.ci/run` runs it first). Plain CommonJS with no dependency:
 * it runs before `npm ci`. Understands the forms that field uses: `^X.Y.Z` and `>=X.Y.Z` joined by `||`.
 * `node scripts/check-node.cjs [version]` checks another version than this one (the tests do).
 */
const fs = require('node:fs');
const path = require('node:path');

function parse(version) {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

function compare(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** Whether `version` satisfies `range` (`^X.Y.Z` or `>=X.Y.Z`, alternatives joined by `||`). */
function accepts(range, version) {
  const v = parse(version);
  if (!v) return false;
  return range.split('||').some((part) => {
    const text = part.trim();
    const caret = /^\^(\d+\.\d+\.\d+)$/.exec(text);
    if (caret) {
      const low = parse(caret[1]);
      return v[0] === low[0] && compare(v, low) >= 0;
    }
    const atLeast = /^>=(\d+\.\d+\.\d+)$/.exec(text);
    if (atLeast) return compare(v, parse(atLeast[1])) >= 0;
    throw new Error(`check-node: cannot read "${text}" in engines.node`);
  });
}

const range = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')).engines.node;
const version = process.argv[2] || process.version;
if (!accepts(range, version)) {
  console.error(
    `Node.js ${version} is not one this project runs on: it needs ${range} (package.json "engines"). Install one of those, then run again.`,
  );
  process.exit(1);
}
console.log(`Node.js ${version}: accepted (${range}).`);
