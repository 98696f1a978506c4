// Helpers for the serve tests: a fake nvidia-smi that replays the real H200 capture as a machine of N GPUs
// with the processes a test chooses, rewritable while the server runs (the fake reads its files on every
// call), and able to hang (a file named "hang" in its folder) as a driver stuck in the kernel does.
// `startServe` runs the built CLI's serve as users do and waits for the URL it prints.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { CLI } from '../helpers/cli.js';
import { fakeBin, FIXTURES, tempDir } from '../helpers/fake-bin.js';

const XML = fs.readFileSync(path.join(FIXTURES, 'h200/hog/smi-one-proc.xml'), 'utf8');
const TOTAL = 143771;

export interface FakeProc {
  pid: number;
  usedMiB: number;
  name?: string;
}
export interface FakeGpu {
  procs: FakeProc[];
  /** memory in use; default: the processes' sum */
  usedMiB?: number;
  mig?: boolean;
}

export function uuidOf(i: number): string {
  return `GPU-3860b93c-ebaf-e6b4-7dbf-21${String(i).padStart(2, '0')}caacf5849`.slice(0, 40);
}

/** The H200 capture's <gpu> element, repeated per GPU with its own bus id, UUID, serial, memory and processes. */
export function smiXml(gpus: FakeGpu[]): string {
  const start = XML.indexOf('\t<gpu id=');
  const end = XML.indexOf('</gpu>') + '</gpu>'.length;
  const gpu = XML.slice(start, end);
  const parts = gpus.map((g, i) => {
    const used = g.usedMiB ?? g.procs.reduce((a, p) => a + p.usedMiB, 0);
    const procs = g.procs
      .map(
        (p) => `\t\t\t<process_info>
\t\t\t\t<gpu_instance_id>N/A</gpu_instance_id>
\t\t\t\t<compute_instance_id>N/A</compute_instance_id>
\t\t\t\t<pid>${p.pid}</pid>
\t\t\t\t<type>C</type>
\t\t\t\t<process_name>${xmlEsc(p.name ?? 'python3')}</process_name>
\t\t\t\t<used_memory>${p.usedMiB} MiB</used_memory>
\t\t\t</process_info>`,
      )
      .join('\n');
    const bus = `00000000:00:0${6 + i}.0`;
    return gpu
      .replace(/<gpu id="[^"]*">/, `<gpu id="${bus}">`)
      .replace(/<pci_bus_id>[^<]*<\/pci_bus_id>/, `<pci_bus_id>${bus}</pci_bus_id>`)
      .replace(/<uuid>[^<]*<\/uuid>/, `<uuid>${uuidOf(i)}</uuid>`)
      .replace(/<serial>[^<]*<\/serial>/, `<serial>16538241615${String(i).padStart(2, '0')}</serial>`)
      .replace(/<minor_number>\d+<\/minor_number>/, `<minor_number>${i}</minor_number>`)
      .replace(
        /(<fb_memory_usage>\s*<total>)[^<]*(<\/total>\s*<reserved>[^<]*<\/reserved>\s*<used>)[^<]*(<\/used>\s*<free>)[^<]*(<\/free>)/,
        `$1${TOTAL} MiB$2${used} MiB$3${TOTAL - used - 616} MiB$4`,
      )
      .replace(/<current_mig>[^<]*<\/current_mig>/, `<current_mig>${g.mig ? 'Enabled' : 'Disabled'}</current_mig>`)
      .replace(/<processes>[\s\S]*?<\/processes>/, `<processes>\n${procs}\n\t\t</processes>`);
  });
  return (
    XML.slice(0, start).replace(
      /<attached_gpus>\d+<\/attached_gpus>/,
      `<attached_gpus>${gpus.length}</attached_gpus>`,
    ) +
    parts.join('\n') +
    XML.slice(end)
  );
}

function xmlEsc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function queryCsv(gpus: FakeGpu[]): string {
  return gpus
    .map((g, i) => {
      const used = g.usedMiB ?? g.procs.reduce((a, p) => a + p.usedMiB, 0);
      return `${i}, ${uuidOf(i)}, NVIDIA H200, 580.159.04, ${TOTAL}, ${used}, ${TOTAL - used - 616}, 9.0, 00000000:00:0${6 + i}.0`;
    })
    .join('\n');
}

export interface FakeSmi {
  dir: string;
  /** rewrites what nvidia-smi prints from its next call on */
  set(gpus: FakeGpu[]): void;
  hang(on: boolean): void;
  /** removes nvidia-smi (as an uninstalled driver does) */
  vanish(): void;
}

export function fakeSmi(gpus: FakeGpu[]): FakeSmi {
  const dir = tempDir('ged-serve-smi-');
  fs.chmodSync(dir, 0o755);
  const write = (g: FakeGpu[]) => {
    // write then rename: the fake never reads half a file
    fs.writeFileSync(path.join(dir, 'smi.xml.tmp'), smiXml(g));
    fs.renameSync(path.join(dir, 'smi.xml.tmp'), path.join(dir, 'smi.xml'));
    fs.writeFileSync(path.join(dir, 'query.csv.tmp'), queryCsv(g));
    fs.renameSync(path.join(dir, 'query.csv.tmp'), path.join(dir, 'query.csv'));
  };
  write(gpus);
  fakeBin(
    dir,
    'nvidia-smi',
    `[ -e '${dir}/hang' ] && exec sleep 1000
case "$1" in
  -q) cat '${dir}/smi.xml' ;;
  --query-gpu=*) cat '${dir}/query.csv' ;;
  *) echo "unsupported" >&2; exit 2 ;;
esac`,
  );
  return {
    dir,
    set: write,
    hang(on) {
      if (on) fs.writeFileSync(path.join(dir, 'hang'), '');
      else fs.rmSync(path.join(dir, 'hang'), { force: true });
    },
    vanish() {
      fs.rmSync(path.join(dir, 'nvidia-smi'), { force: true });
    },
  };
}

export interface Serve {
  child: ChildProcess;
  url: string;
  base: string;
  stdout: () => string;
  stderr: () => string;
  stop(): Promise<number | null>;
}

// Servers still running when the test process ends (a test that timed out before its cleanup) are ended too.
const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of live) c.kill('SIGKILL');
});

/** Starts `gpu-env-doctor serve ARGS` (port 0 unless given) and waits for the URL it prints. */
export async function startServe(args: string[], env: Record<string, string> = {}): Promise<Serve> {
  const full = args.includes('--port') ? args : [...args, '--port', '0'];
  const child = spawn(process.execPath, [CLI, 'serve', ...full], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  child.on('exit', () => live.delete(child));
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const url = await new Promise<string>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`serve did not start: ${out} ${err}`)), 30000);
    const poll = setInterval(() => {
      const m = /serve: (http:\/\/\S+)/.exec(out);
      if (m) {
        clearInterval(poll);
        clearTimeout(t);
        resolve(m[1]!);
      }
    }, 20);
    child.on('exit', (code) => {
      clearInterval(poll);
      clearTimeout(t);
      reject(new Error(`serve exited with ${code}: ${err}`));
    });
  });
  const u = new URL(url);
  return {
    child,
    url,
    base: `http://127.0.0.1:${u.port}`,
    stdout: () => out,
    stderr: () => err,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
}

export interface Got {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A plain GET (Node's http: no browser, no keep-alive), with extra headers. */
export function get(url: string, headers: Record<string, string> = {}): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.setTimeout(10000, () => req.destroy(new Error(`GET ${url} timed out`)));
  });
}

/** Waits until `cond` holds, polling. */
export async function until<T>(
  what: string,
  f: () => Promise<T | null | undefined | false>,
  ms = 10000,
  every = 100,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, every));
  }
}
