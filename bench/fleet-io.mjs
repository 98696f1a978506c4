// fleet's I/O path alone, from a build: the folder walk (expandInputs) and the per-file read and parse (readInput)
// of every file it finds, each timed on this thread, N rounds interleaved between builds. CPU time per round
// (process.cpuUsage) as well as wall: on a shared VM the CPU time is the steadier figure.
//   node bench/fleet-io.mjs DIR [--rounds 7] [--read] DIST [DIST2 …]
// DIST: a dist/ folder (built by `npm run build`); its functions are found in its chunks by their exports.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
};
const rounds = Number(flag('--rounds') ?? 7);
const readToo = args.includes('--read');
const rest = args.filter((a) => a !== '--read');
const [dir, ...dists] = rest;
if (!dir || dists.length === 0) {
  console.error('usage: node bench/fleet-io.mjs DIR [--rounds N] [--read] DIST [DIST2 …]');
  process.exit(2);
}

/** The exported function `name` of the chunk that defines it (merged chunks export it under an alias). */
async function exported(dist, name) {
  const chunks = path.join(dist, 'chunks');
  for (const f of fs.readdirSync(chunks)) {
    const text = fs.readFileSync(path.join(chunks, f), 'utf8');
    if (!text.includes(`function ${name}(`)) continue;
    const alias = new RegExp(`\\b${name}(?: as ([\\w$]+))?,?\\n`).exec(text.slice(text.lastIndexOf('export {')));
    if (!alias) continue;
    const m = await import(pathToFileURL(path.join(chunks, f)).href);
    return m[alias[1] ?? name];
  }
  throw new Error(`${name} not found in ${dist}`);
}

const builds = [];
for (const d of dists) {
  const abs = path.resolve(d);
  builds.push({
    name: d,
    expandInputs: await exported(abs, 'expandInputs'),
    readInput: await exported(abs, 'readInput'),
    createFileSystem: await exported(abs, 'createFileSystem'),
    walk: [],
    read: [],
  });
}

function cpuMs(f) {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const r = f();
  const c = process.cpuUsage(c0);
  return { r, cpu: (c.user + c.system) / 1000, wall: Number(process.hrtime.bigint() - t0) / 1e6 };
}

for (let i = 0; i < rounds; i++) {
  for (const b of builds) {
    const fsys = b.createFileSystem('/');
    const w = cpuMs(() => b.expandInputs(fsys, process.cwd(), [dir]));
    b.walk.push(w);
    b.files = w.r.files.length;
    if (readToo) {
      const { files, walked } = w.r;
      const r = cpuMs(() => {
        let ok = 0;
        for (const f of files) if ('snapshot' in b.readInput(fsys, process.cwd(), f, walked.get(f))) ok++;
        return ok;
      });
      b.read.push(r);
      b.ok = r.r;
    }
  }
}

const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (xs, k) => `${med(xs.map((x) => x[k])).toFixed(1)} (min ${Math.min(...xs.map((x) => x[k])).toFixed(1)})`;
for (const b of builds) {
  console.log(`${b.name}: ${b.files} files, ${rounds} rounds`);
  console.log(`  walk  cpu ms ${fmt(b.walk, 'cpu')}  wall ms ${fmt(b.walk, 'wall')}`);
  if (readToo) console.log(`  read  cpu ms ${fmt(b.read, 'cpu')}  wall ms ${fmt(b.read, 'wall')}  (${b.ok} snapshots)`);
}
