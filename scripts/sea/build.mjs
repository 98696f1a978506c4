#!/usr/bin/env node
// Builds the single executable (Node's single-executable applications): a Node.js binary for the target platform
// with scripts/sea/launcher.cjs injected as its main script and the built dist/ tree as one asset (the launcher
// unpacks it to a private cache on first start). The Node binary comes from the npm registry's official
// node-linux-<arch> packages (fetched with `npm pack`, cached under dist/sea/cache), or from --node FILE.
// The preparation blob is made by a Node of the same version as the target binary, run here: for arm64 the
// x64 binary of that version makes it (the blob holds no machine code: useCodeCache and useSnapshot stay off).
//   node scripts/sea/build.mjs [--arch x64|arm64] [--node FILE] [--out FILE]
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const NODE_MAJOR = 22;
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

const argv = process.argv.slice(2);
const opt = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const arch = opt('--arch') ?? process.arch;
if (arch !== 'x64' && arch !== 'arm64') fail(`--arch must be x64 or arm64, not ${arch}`);
const work = path.join(repo, 'dist', 'sea');
const out = path.resolve(opt('--out') ?? path.join(work, `gpu-env-doctor-linux-${arch}`));

function fail(msg) {
  console.error(`sea: ${msg}`);
  process.exit(2);
}

/** the official Node binary of the newest NODE_MAJOR release for an arch, from the npm registry, cached */
function nodeBinary(forArch) {
  const cache = path.join(work, 'cache');
  fs.mkdirSync(cache, { recursive: true });
  const pkg = `node-linux-${forArch}@${NODE_MAJOR}`;
  const version = execFileSync('npm', ['view', pkg, 'version', '--json'], { encoding: 'utf8' });
  const versions = JSON.parse(version);
  const v = Array.isArray(versions) ? versions.at(-1) : versions;
  const bin = path.join(cache, `node-${v}-linux-${forArch}`);
  if (!fs.existsSync(bin)) {
    const tgz = execFileSync('npm', ['pack', '--silent', `node-linux-${forArch}@${v}`], {
      cwd: cache,
      encoding: 'utf8',
    })
      .trim()
      .split('\n')
      .at(-1);
    const tmp = fs.mkdtempSync(path.join(cache, 'x-'));
    execFileSync('tar', ['-xzf', path.join(cache, tgz), '-C', tmp, 'package/bin/node']);
    fs.renameSync(path.join(tmp, 'package/bin/node'), bin);
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.rmSync(path.join(cache, tgz), { force: true });
  }
  return { bin, version: v };
}

/** dist/ (the CLI as `npm ci` builds it) and docs/findings (the pages the CLI and the MCP server point to), packed
 *  as the launcher reads them: the same files the npm package ships */
function packDist() {
  const root = path.join(repo, 'dist');
  if (!fs.existsSync(path.join(root, 'cli.js'))) fail('dist/cli.js is missing: run npm run build first');
  const files = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (p === work || e.name === 'wheels') continue;
        walk(p);
      } else if (e.isFile()) files.push(p);
    }
  };
  walk(root);
  walk(path.join(repo, 'docs', 'findings'));
  const entries = [];
  const bodies = [];
  for (const f of files) {
    const body = fs.readFileSync(f);
    entries.push([path.relative(repo, f), body.length, 0o600]);
    bodies.push(body);
  }
  const head = Buffer.from(JSON.stringify(entries), 'utf8');
  const len = Buffer.alloc(4);
  len.writeUInt32LE(head.length);
  return Buffer.concat([len, head, ...bodies]);
}

const version = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')).version;
const blob = packDist();
const key = `${version}-${createHash('sha256').update(blob).digest('hex').slice(0, 16)}`;
const target = opt('--node') ? { bin: path.resolve(opt('--node')), version: null } : nodeBinary(arch);
// the blob is made by a Node of the target's version that runs here
const maker = process.arch === arch && opt('--node') ? target : nodeBinary(process.arch);
if (target.version && maker.version && target.version !== maker.version)
  fail(`the blob maker is Node ${maker.version}, the target ${target.version}`);

fs.mkdirSync(work, { recursive: true });
const tmp = fs.mkdtempSync(path.join(work, 'build-'));
try {
  fs.writeFileSync(path.join(tmp, 'dist.bin'), blob);
  fs.writeFileSync(
    path.join(tmp, 'main.cjs'),
    fs.readFileSync(path.join(repo, 'scripts/sea/launcher.cjs'), 'utf8').replace('__GED_BUNDLE_KEY__', key),
  );
  fs.writeFileSync(
    path.join(tmp, 'sea-config.json'),
    JSON.stringify({
      main: path.join(tmp, 'main.cjs'),
      output: path.join(tmp, 'prep.blob'),
      disableExperimentalSEAWarning: true,
      useSnapshot: false,
      useCodeCache: false,
      assets: { dist: path.join(tmp, 'dist.bin') },
    }),
  );
  execFileSync(maker.bin, ['--experimental-sea-config', path.join(tmp, 'sea-config.json')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.copyFileSync(target.bin, out);
  fs.chmodSync(out, 0o755);
  const { inject } = await import('postject');
  await inject(out, 'NODE_SEA_BLOB', fs.readFileSync(path.join(tmp, 'prep.blob')), { sentinelFuse: FUSE });
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
console.log(
  `${path.relative(process.cwd(), out)}: Node ${target.version ?? '(given)'} linux-${arch}, ${(fs.statSync(out).size / 2 ** 20).toFixed(1)} MiB, tree ${key}`,
);
