// Lints each .cypher file under the given folder with Neo4j's official linter.
// A file declares its parameters in a header line `// params: a, b`; only those are
// declared to the linter, so "Parameter $x is not defined" flags a real mismatch.
// Prints one JSON object: {file: [diagnostic, ...]}. Exit 0; the caller judges.
const fs = require('fs');
const path = require('path');
const { lintCypherQuery } = require('@neo4j-cypher/language-support');

function walk(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? walk(p) : p.endsWith('.cypher') ? [p] : [];
  });
}

function declaredParams(text) {
  const params = {};
  for (const line of text.split('\n')) {
    const m = line.match(/^\/\/\s*params:\s*(.*)$/);
    if (m) m[1].split(',').map((s) => s.trim()).filter(Boolean).forEach((p) => { params[p] = null; });
  }
  return params;
}

const root = process.argv[2] || 'cypher';
const report = {};
for (const file of walk(root).sort()) {
  const text = fs.readFileSync(file, 'utf8');
  const { diagnostics } = lintCypherQuery(text, { parameters: declaredParams(text) });
  report[path.relative(root, file)] = diagnostics.map((d) => ({
    severity: d.severity, message: d.message,
    line: d.range.start.line + 1, column: d.range.start.character + 1,
  }));
}
process.stdout.write(JSON.stringify(report, null, 1) + '\n');
