import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { SourceMap } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot } from '../../../src/paths.js';

const bundle = path.join(projectRoot, 'dist', 'src', 'main.bundle.cjs');

describe('stack traces of the bundled service', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dictum-source-map-'));
  });
  after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the build writes a map of the bundle that leads back to the TypeScript sources', () => {
    const text = fs.readFileSync(bundle, 'utf8');
    const map = new SourceMap(JSON.parse(fs.readFileSync(`${bundle}.map`, 'utf8')));
    const needle = 'An unexpected error occurred; it has been logged';
    const at = text.indexOf(needle);
    assert.ok(at > 0, 'the bundle holds the service');
    const before = text.slice(0, at).split('\n');
    const entry = map.findEntry(before.length - 1, before.at(-1)!.length) as { originalSource?: string; originalLine?: number };
    assert.equal(path.resolve(path.dirname(bundle), entry.originalSource!), path.join(projectRoot, 'src', 'http', 'errors.ts'));
    const sourceLines = fs.readFileSync(path.join(projectRoot, 'src', 'http', 'errors.ts'), 'utf8').split('\n');
    assert.match(sourceLines[entry.originalLine!]!, /An unexpected error occurred/);
  });

  it('the loader reads the map line by line and finds the same places as Node\'s own decoder', async () => {
    type Place = { source: string; line: number; column: number } | null;
    const { readSourceMap } = (await import(pathToFileURL(path.join(projectRoot, 'scripts', 'bundle-stack-traces.mjs')).href)) as {
      readSourceMap(file: string): { find(line: number, column: number): Place };
    };
    const mine = readSourceMap(`${bundle}.map`);
    const node = new SourceMap(JSON.parse(fs.readFileSync(`${bundle}.map`, 'utf8')));
    const lines = fs.readFileSync(bundle, 'utf8').split('\n');
    let compared = 0;
    // Every 97th line, at its start, a third and two thirds in: a deterministic spread over the bundle.
    for (let line = 0; line < lines.length; line += 97) {
      for (const column of [0, Math.floor(lines[line]!.length / 3), Math.floor((lines[line]!.length * 2) / 3)]) {
        const e = node.findEntry(line, column) as { generatedLine?: number; originalSource?: string; originalLine?: number; originalColumn?: number };
        const expected = e.originalSource !== undefined && e.generatedLine === line ? { source: path.resolve(path.dirname(bundle), e.originalSource), line: e.originalLine, column: e.originalColumn } : null;
        assert.deepEqual(mine.find(line, column), expected, `line ${line} column ${column}`);
        compared++;
      }
    }
    assert.ok(compared > 300, `${compared} places compared`);
  });

  it('the loader of npm start names the sources and their lines in a stack trace', () => {
    const src = path.join(dir, 'src');
    fs.mkdirSync(src);
    fs.writeFileSync(path.join(src, 'failing.ts'), 'export function failing(n: number): string {\n  const note: string = `n is ${n}`;\n  return new Error(note).stack ?? "";\n}\n');
    fs.writeFileSync(path.join(src, 'main.ts'), 'import { failing } from "./failing";\nprocess.stdout.write(failing(1));\n');
    const out = path.join(dir, 'main.bundle.cjs');
    const esbuild = path.join(projectRoot, 'node_modules', 'esbuild', 'bin', 'esbuild');
    const built = spawnSync(esbuild, [path.join(src, 'main.ts'), '--bundle', '--platform=node', '--format=cjs', '--sourcemap=external', `--outfile=${out}`]);
    assert.equal(built.status, 0, String(built.stderr));
    const loader = pathToFileURL(path.join(projectRoot, 'scripts', 'bundle-loader.mjs')).href;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', `import { runBundle } from ${JSON.stringify(loader)}; runBundle(${JSON.stringify(out)});`]);
    assert.equal(run.status, 0, String(run.stderr));
    const stack = String(run.stdout);
    assert.match(stack, /^Error: n is 1\n/);
    assert.ok(stack.includes(`at failing (${path.join(src, 'failing.ts')}:3:10)`), stack);
    assert.ok(stack.includes(`${path.join(src, 'main.ts')}:2:`), stack);
    fs.writeFileSync(`${out}.map`, '{"version":3,"sources":[],"mappings":"!!"}');
    const damaged = spawnSync(process.execPath, ['--input-type=module', '-e', `import { runBundle } from ${JSON.stringify(loader)}; runBundle(${JSON.stringify(out)});`]);
    assert.equal(damaged.status, 0, String(damaged.stderr));
    assert.ok(String(damaged.stdout).includes(`at failing (${out}:`), `a damaged map leaves the bundle's places: ${damaged.stdout}`);
    fs.rmSync(`${out}.map`);
    const unmapped = String(spawnSync(process.execPath, ['--input-type=module', '-e', `import { runBundle } from ${JSON.stringify(loader)}; runBundle(${JSON.stringify(out)});`]).stdout);
    assert.ok(unmapped.includes(`at failing (${out}:`), `without a map the bundle's own places: ${unmapped}`);
  });
});
