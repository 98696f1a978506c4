// Evaluates a TypeScript module of the sources at build time (a message catalog, a parser) and returns its
// exports: bundled by esbuild in memory, imported from a data: URL, nothing written.
import { build } from 'esbuild';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export async function evalModule(file) {
  const r = await build({
    absWorkingDir: repo,
    entryPoints: [file],
    bundle: true,
    write: false,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    logLevel: 'warning',
  });
  return import(`data:text/javascript;base64,${Buffer.from(r.outputFiles[0].text).toString('base64')}`);
}
