// The English messages a short explain prints, apart (dist/i18n/en-explain.json): explain's tree reads them at its
// start and the whole catalog (dist/i18n/en.json, ~180 kB: parsing it and keeping its ~1,500 strings was a few
// per cent of a short explain) only when a message not among them is asked (scripts/build.mjs hotCatalogModule).
// Which messages: the build runs the built explain with the file empty, and a preload records each key read from
// the whole catalog. Any other message is still there (read from the whole file): the choice is one of speed only.
// The step checks that the build prints the same with the file written, and leaves it empty otherwise.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const HOT_MESSAGES = 'en-explain.json';

/** a preload: wraps the parse of the whole English catalog in a proxy that writes down each key read (at exit) */
const RECORDER = `import * as fs from 'node:fs';
const whole = fs.readFileSync(process.env.GED_HOT_CATALOG, 'utf8');
const keys = new Set();
const parse = JSON.parse;
JSON.parse = function (text, reviver) {
  const value = parse(text, reviver);
  if (text !== whole) return value;
  return new Proxy(value, {
    get: (o, k) => {
      if (typeof k === 'string' && Object.hasOwn(o, k)) keys.add(k);
      return o[k];
    },
  });
};
process.on('exit', () => fs.writeFileSync(process.env.GED_HOT_OUT, JSON.stringify([...keys])));
`;

/**
 * Writes `outdir`/i18n/en-explain.json with the messages the runs `argvs` (each a command line after dist/cli.js)
 * read. Throws when the build then prints anything else than it did; returns the number of messages.
 */
export function writeHotMessages(outdir, argvs, node = process.execPath) {
  const cli = path.join(outdir, 'cli.js');
  const hotFile = path.join(outdir, 'i18n', HOT_MESSAGES);
  const catalogFile = path.join(outdir, 'i18n', 'en.json');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ged-hot-'));
  try {
    const recorder = path.join(dir, 'recorder.mjs');
    fs.writeFileSync(recorder, RECORDER);
    // no code cache of explain's tree (src/cli/explain-load.ts) written into the user's cache by the build
    const base = {
      ...process.env,
      NO_COLOR: '1',
      LANG: 'C.UTF-8',
      LC_ALL: 'C.UTF-8',
      GPU_ENV_DOCTOR_NO_CACHE: '1',
      GED_HOT_CATALOG: catalogFile,
    };
    fs.writeFileSync(hotFile, '{}');
    const keys = new Set();
    const before = argvs.map((argv, i) => {
      const out = path.join(dir, `keys-${i}.json`);
      const r = spawnSync(node, ['--import', recorder, cli, ...argv], {
        encoding: 'utf8',
        env: { ...base, GED_HOT_OUT: out },
      });
      for (const k of JSON.parse(fs.readFileSync(out, 'utf8'))) keys.add(k);
      return r;
    });
    const whole = JSON.parse(fs.readFileSync(catalogFile, 'utf8'));
    const hot = {};
    for (const k of [...keys].sort()) hot[k] = whole[k];
    // ASCII, as en.json (scripts/build.mjs asciiJson): a one-byte string to read and parse
    fs.writeFileSync(
      hotFile,
      JSON.stringify(hot).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    );
    for (const [i, argv] of argvs.entries()) {
      const r = spawnSync(node, [cli, ...argv], { encoding: 'utf8', env: base });
      if (r.stdout !== before[i].stdout || r.status !== before[i].status) {
        fs.writeFileSync(hotFile, '{}');
        throw new Error(`${HOT_MESSAGES} changes what \`${argv.join(' ')}\` prints`);
      }
    }
    return keys.size;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
