// Writes the manual page dist/gpu-env-doctor.1 from src/cli/man.ts: the commands and the option table bundled in
// memory (with the build's plugins, so they load as in the CLI) and asked for their help in English.
import { build } from 'esbuild';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const ENTRY = `
import { COMMANDS } from './src/cli/registry.ts';
import { manPage } from './src/cli/man.ts';
import { setLang } from './src/base/i18n/index.ts';
export async function page() {
  setLang('en');
  const commands = [];
  for (const entry of Object.values(COMMANDS)) commands.push((await entry.load()).command);
  return manPage(commands);
}
`;

/** `plugins` and `define`: the build's, for modules that read bundled assets. */
export async function writeManPage(repo, outFile, { plugins = [], define = {} } = {}) {
  const r = await build({
    absWorkingDir: repo,
    stdin: { contents: ENTRY, resolveDir: repo, loader: 'ts', sourcefile: 'man-entry.ts' },
    bundle: true,
    write: false,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    plugins,
    define,
    logLevel: 'error',
  });
  // a file, not a data: URL: modules resolve things relative to import.meta.url when they load
  const dir = await mkdtemp(path.join(os.tmpdir(), 'ged-man-'));
  try {
    const file = path.join(dir, 'man.mjs');
    await writeFile(file, r.outputFiles[0].text);
    await writeFile(path.resolve(repo, outFile), await (await import(pathToFileURL(file).href)).page());
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
