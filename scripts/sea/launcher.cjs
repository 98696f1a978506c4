'use strict';
// The single executable's entry (Node's single-executable applications run one CommonJS script). The CLI itself is
// the same dist/ tree that `node dist/cli.js` runs, carried inside the executable as one asset: on first start it is
// written to a private cache folder named by its content hash, then loaded from there as ES modules, so the
// executable behaves exactly as the npm package does (and V8's compile cache works on those files).
// The cache is used only when the folder chain is the caller's own and not writable by others; otherwise the tree
// goes to a new private temporary folder for this run alone.
const sea = require('node:sea');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

/** set by scripts/sea/build.mjs: the tool's version and a hash of the carried tree */
const KEY = '__GED_BUNDLE_KEY__';

function privateFolder(dir) {
  try {
    const st = fs.lstatSync(dir);
    const uid = typeof process.getuid === 'function' ? process.getuid() : -1;
    return st.isDirectory() && (st.uid === uid || uid === -1) && (st.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/** the archive: 4 bytes of header length, the header (JSON: [path, size, mode][]), then the files' bytes */
function unpack(into) {
  const blob = Buffer.from(sea.getAsset('dist'));
  const headLen = blob.readUInt32LE(0);
  const entries = JSON.parse(blob.subarray(4, 4 + headLen).toString('utf8'));
  let at = 4 + headLen;
  for (const [rel, size, mode] of entries) {
    const file = path.join(into, rel);
    if (!file.startsWith(into + path.sep)) throw new Error(`bad entry in the carried tree: ${rel}`);
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, blob.subarray(at, at + size), { mode, flag: 'wx' });
    at += size;
  }
}

function cacheBase() {
  const home = os.homedir();
  const xdg = process.env.XDG_CACHE_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : home ? path.join(home, '.cache') : null;
  if (base === null) return null;
  try {
    fs.mkdirSync(base, { mode: 0o700 }); // a home without ~/.cache yet: the caller's own from now on
  } catch {
    /* it exists (checked next), or cannot be made */
  }
  return privateFolder(base) ? path.join(base, 'gpu-env-doctor') : null;
}

function treeFolder() {
  const base = cacheBase();
  if (base !== null) {
    const dir = path.join(base, KEY);
    if (privateFolder(dir) && fs.existsSync(path.join(dir, '.complete'))) return dir;
    try {
      fs.mkdirSync(base, { recursive: true, mode: 0o700 });
      if (privateFolder(base)) {
        const tmp = fs.mkdtempSync(path.join(base, '.new-'));
        unpack(tmp);
        fs.writeFileSync(path.join(tmp, '.complete'), KEY, { flag: 'wx' });
        try {
          fs.renameSync(tmp, dir);
        } catch {
          fs.rmSync(tmp, { recursive: true, force: true }); // another start won the race: use its tree
        }
        if (privateFolder(dir) && fs.existsSync(path.join(dir, '.complete'))) return dir;
      }
    } catch {
      /* no usable cache: a folder for this run alone */
    }
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gpu-env-doctor-'));
  unpack(tmp);
  process.once('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));
  return tmp;
}

let dir;
try {
  dir = treeFolder();
} catch (e) {
  process.stderr.write(`gpu-env-doctor: cannot unpack the program: ${e && e.message ? e.message : e}\n`);
  process.exit(2);
}
import(pathToFileURL(path.join(dir, 'dist', 'cli.js')).href).catch((e) => {
  process.stderr.write(`gpu-env-doctor: cannot start: ${e && e.message ? e.message : e}\n`);
  process.exit(2);
});
