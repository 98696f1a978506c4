// The Kubernetes examples: parsed as YAML and checked for the fields they rely on, and the DaemonSet's own
// shell loop run (with the real CLI replaying an H200 snapshot) to prove it leaves a valid .prom file.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { CLI } from '../helpers/cli.js';
import { fakeBin, tempDir } from '../helpers/fake-bin.js';
import { parseExposition } from '../prometheus/exposition-parser.js';

const K8S = path.resolve(__dirname, '../../examples/kubernetes');
const HELD = path.resolve(__dirname, '../fixtures/snapshots/h200-memory-held.json');

interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  env?: { name: string; value: string }[];
  resources?: { limits?: Record<string, unknown>; requests?: Record<string, unknown> };
  securityContext?: {
    capabilities?: { add?: string[]; drop?: string[] };
    allowPrivilegeEscalation?: boolean;
    runAsUser?: number;
  };
  volumeMounts?: { name: string; mountPath: string }[];
}
interface PodSpec {
  runtimeClassName?: string;
  hostPID?: boolean;
  restartPolicy?: string;
  nodeSelector?: Record<string, string>;
  tolerations?: { key: string; operator: string; effect?: string }[];
  containers: Container[];
  volumes?: { name: string; hostPath?: { path: string; type?: string }; emptyDir?: object }[];
}
type Doc = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec: any;
};

function load(file: string): Doc[] {
  const docs = parseAllDocuments(fs.readFileSync(path.join(K8S, file), 'utf8'));
  for (const d of docs) expect(d.errors, `${file}: ${d.errors.map((e) => e.message).join('; ')}`).toEqual([]);
  return docs.map((d) => d.toJS() as Doc);
}
const envOf = (c: Container) => Object.fromEntries((c.env ?? []).map((e) => [e.name, e.value]));

describe('DaemonSet: check --format prometheus on every GPU node', () => {
  const docs = load('daemonset.yaml');
  const ds = docs.find((d) => d.kind === 'DaemonSet')!;
  const pod = ds.spec.template.spec as PodSpec;
  const c = pod.containers[0]!;

  it('is an apps/v1 DaemonSet whose selector matches its pods, in a namespace the file creates', () => {
    expect(ds.apiVersion).toBe('apps/v1');
    expect(docs.find((d) => d.kind === 'Namespace')!.metadata.name).toBe(ds.metadata.namespace);
    for (const [k, v] of Object.entries(ds.spec.selector.matchLabels as Record<string, string>))
      expect(ds.spec.template.metadata.labels[k]).toBe(v);
  });

  it("sees every GPU through the NVIDIA runtime without taking one, and the host's processes", () => {
    expect(pod.runtimeClassName).toBe('nvidia');
    expect(pod.hostPID).toBe(true);
    expect(envOf(c).NVIDIA_VISIBLE_DEVICES).toBe('all');
    expect(envOf(c).NVIDIA_DRIVER_CAPABILITIES).toMatch(/utility/); // nvidia-smi needs "utility"
    expect(Object.keys(c.resources?.limits ?? {}).some((k) => k.startsWith('nvidia.com/'))).toBe(false);
    expect(Object.keys(c.resources?.requests ?? {}).some((k) => k.startsWith('nvidia.com/'))).toBe(false);
    expect(pod.tolerations!.some((t) => t.key === 'nvidia.com/gpu' && t.operator === 'Exists')).toBe(true);
    expect(c.securityContext!.capabilities!.drop).toEqual(['ALL']);
    expect(c.securityContext!.capabilities!.add).toEqual(expect.arrayContaining(['SYS_PTRACE', 'DAC_READ_SEARCH']));
    expect(c.securityContext!.allowPrivilegeEscalation).toBe(false);
  });

  it("writes into node_exporter's textfile folder, mounted from the host", () => {
    const dir = envOf(c).TEXTFILE_DIR!;
    const mount = c.volumeMounts!.find((m) => m.mountPath === dir)!;
    const vol = pod.volumes!.find((v) => v.name === mount.name)!;
    expect(vol.hostPath).toEqual({ path: '/var/lib/node_exporter/textfile_collector', type: 'DirectoryOrCreate' });
    expect(c.args!.join('\n')).toContain('gpu-env-doctor check --format prometheus');
  });

  it('its loop leaves a valid .prom file (written atomically), and keeps the last good one when check fails', () => {
    expect(c.command).toEqual(['/bin/sh', '-c']);
    const script = c.args![0]!;
    const dir = tempDir('ged-k8s-');
    const bin = path.join(dir, 'bin');
    const textfile = path.join(dir, 'textfile');
    fs.mkdirSync(bin);
    fs.mkdirSync(textfile);
    // sleep fails: the loop ends after one round (as it does when the pod is stopped)
    fakeBin(bin, 'sleep', 'exit 1');
    fakeBin(bin, 'gpu-env-doctor', `exec '${process.execPath}' '${CLI}' "$@" --from '${HELD}'`);
    const env = { ...envOf(c), TEXTFILE_DIR: textfile, PATH: `${bin}:/usr/bin:/bin` };
    const r = spawnSync('/bin/sh', ['-c', script], { env, encoding: 'utf8', timeout: 30000 });
    expect(r.status).toBe(0);
    expect(fs.readdirSync(textfile)).toEqual(['gpu_env_doctor.prom']); // no temporary file left
    const prom = parseExposition(fs.readFileSync(path.join(textfile, 'gpu_env_doctor.prom'), 'utf8'));
    expect(
      prom.get('gpu_env_doctor_gpu_memory_held_bytes')!.samples.find((x) => x.labels.verdict === 'unknown')!.value,
    ).toBe(141948 * 1024 * 1024);

    fakeBin(bin, 'gpu-env-doctor', 'echo "gpu-env-doctor: internal error" >&2; exit 2');
    const failed = spawnSync('/bin/sh', ['-c', script], { env, encoding: 'utf8', timeout: 30000 });
    expect(failed.stderr).toContain('gpu-env-doctor check failed (exit 2)');
    expect(fs.readdirSync(textfile)).toEqual(['gpu_env_doctor.prom']);
    expect(parseExposition(fs.readFileSync(path.join(textfile, 'gpu_env_doctor.prom'), 'utf8')).size).toBeGreaterThan(
      5,
    );
  });
});

describe('DaemonSet: snapshots for serve --fleet', () => {
  const ds = load('daemonset.yaml').find((d) => d.kind === 'DaemonSet')!;
  const c = (ds.spec.template.spec as PodSpec).containers[0]!;

  it('off by default; with SNAPSHOT_DIR set, each round leaves NODE.json (written atomically) that serve --fleet reads', async () => {
    expect(envOf(c).SNAPSHOT_DIR).toBe('');
    const nodeName = (c.env as { name: string; valueFrom?: { fieldRef?: { fieldPath: string } } }[]).find(
      (e) => e.name === 'NODE_NAME',
    )!;
    expect(nodeName.valueFrom?.fieldRef?.fieldPath).toBe('spec.nodeName');
    const dir = tempDir('ged-k8s-fleet-');
    const bin = path.join(dir, 'bin');
    const snaps = path.join(dir, 'snapshots');
    fs.mkdirSync(bin);
    fs.mkdirSync(snaps);
    fs.mkdirSync(path.join(dir, 'textfile'));
    fakeBin(bin, 'sleep', 'exit 1');
    fakeBin(bin, 'gpu-env-doctor', `exec '${process.execPath}' '${CLI}' "$@" --from '${HELD}'`);
    const env = {
      ...envOf(c),
      TEXTFILE_DIR: path.join(dir, 'textfile'),
      SNAPSHOT_DIR: snaps,
      NODE_NAME: 'gpu-node-7',
      PATH: `${bin}:/usr/bin:/bin`,
    };
    const r = spawnSync('/bin/sh', ['-c', c.args![0]!], { env, encoding: 'utf8', timeout: 30000 });
    expect(r.status).toBe(0);
    expect(fs.readdirSync(snaps)).toEqual(['gpu-node-7.json']);
    const { FleetWatcher } = await import('../../src/act/serve/fleet.js');
    const { createFileSystem } = await import('../../src/ports/fs.js');
    const w = new FleetWatcher({
      fs: createFileSystem('/'),
      cwd: '/',
      dir: snaps,
      now: Date.now,
      intervalMs: 1000,
      mergeEveryMs: 0,
      oldAfterMs: 1e12,
      onChange: () => undefined,
    });
    await w.scan();
    expect(w.model().machines).toEqual([
      expect.objectContaining({ file: path.join(snaps, 'gpu-node-7.json'), gpus: 1, users: ['root'] }),
    ]);
  });

  // M5 of security-audit-2026-12-03: the loop wrote `> SNAPSHOT_DIR/.NODE.json.tmp`, a fixed name on a shared volume.
  it('links planted at the old temporary names and at NODE.json are never written through', () => {
    const dir = tempDir('ged-k8s-links-');
    const bin = path.join(dir, 'bin');
    const snaps = path.join(dir, 'snapshots');
    const textfile = path.join(dir, 'textfile');
    for (const d of [bin, snaps, textfile]) fs.mkdirSync(d);
    const precious = path.join(dir, 'precious.txt');
    fs.writeFileSync(precious, 'precious\n', { mode: 0o600 });
    for (const l of [
      path.join(snaps, '.gpu-node-7.json.tmp'),
      path.join(snaps, 'gpu-node-7.json'),
      path.join(textfile, 'gpu_env_doctor.prom'),
    ])
      fs.symlinkSync(precious, l);
    fakeBin(bin, 'sleep', 'exit 1');
    fakeBin(bin, 'gpu-env-doctor', `exec '${process.execPath}' '${CLI}' "$@" --from '${HELD}'`);
    const env = {
      ...envOf(c),
      TEXTFILE_DIR: textfile,
      SNAPSHOT_DIR: snaps,
      NODE_NAME: 'gpu-node-7',
      PATH: `${bin}:/usr/bin:/bin`,
    };
    const r = spawnSync('/bin/sh', ['-c', c.args![0]!], { env, encoding: 'utf8', timeout: 30000 });
    expect(r.status).toBe(0);
    expect(fs.readFileSync(precious, 'utf8')).toBe('precious\n');
    for (const f of [path.join(snaps, 'gpu-node-7.json'), path.join(textfile, 'gpu_env_doctor.prom')]) {
      expect(fs.lstatSync(f).isSymbolicLink()).toBe(false);
      expect(fs.statSync(f).mode & 0o777).toBe(0o644);
    }
    expect(fs.readdirSync(textfile)).toEqual(['gpu_env_doctor.prom']);
  });
});

describe('Job: a one-off check with one GPU', () => {
  const [job] = load('job.yaml');
  const pod = job!.spec.template.spec as PodSpec;
  const c = pod.containers[0]!;
  it('runs check once on a GPU it requests, and does not retry', () => {
    expect(job!.apiVersion).toBe('batch/v1');
    expect(job!.kind).toBe('Job');
    expect(job!.spec.backoffLimit).toBe(0);
    expect(pod.restartPolicy).toBe('Never');
    expect(pod.runtimeClassName).toBe('nvidia');
    expect(c.resources!.limits!['nvidia.com/gpu']).toBe(1);
    expect(c.command!.slice(0, 2)).toEqual(['gpu-env-doctor', 'check']);
  });
  it('uses the image the DaemonSet uses, built by the Dockerfile', () => {
    const ds = load('daemonset.yaml').find((d) => d.kind === 'DaemonSet')!;
    expect(c.image).toBe(ds.spec.template.spec.containers[0].image);
    const dockerfile = fs.readFileSync(path.join(K8S, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^FROM node:20/m);
    expect(dockerfile).toContain(`-t ${c.image}`);
  });
});
