// check --markdown / --html / --redact through the built CLI, judging a saved snapshot (--from).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/fake-bin.js';
import { SERIAL, UUID, hogSnapshot } from './sample.js';

let dir: string;
let snap: string;
beforeAll(() => {
  dir = tempDir('ged-check-report-');
  snap = path.join(dir, 'snap.json');
  fs.writeFileSync(snap, JSON.stringify(hogSnapshot()));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('check reports', () => {
  it('--markdown prints the GitHub-issue report on stdout', () => {
    const r = runCli(['check', '--from', snap, '--markdown']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(
      /^### gpu-env-doctor check of the snapshot .*snap\.json\n\n<sub>host gpu-node-17\.example\.com, taken 2026-12-02 09:42 UTC \(.* ago\); ages are as of that moment<\/sub>/,
    );
    expect(r.stdout).toContain('<summary>Findings: evidence and fixes</summary>');
    expect(r.stdout).toContain('PID 694');
    expect([0, 1]).toContain(r.code);
  });

  it('--html FILE writes one self-contained page next to the usual terminal report', () => {
    const out = path.join(dir, 'check.html');
    const r = runCli(['check', '--from', snap, '--html', out]);
    expect(r.stdout).toMatch(/^gpu-env-doctor check of the snapshot .*snap\.json/);
    expect(r.stdout).toContain('host gpu-node-17.example.com, taken 2026-12-02 09:42 UTC');
    expect(r.stderr).toBe(`gpu-env-doctor: wrote ${out}\n`);
    const html = fs.readFileSync(out, 'utf8');
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toMatch(/<rect class="seg seg-other seg-other-0" data-kind="other" data-mib="142848" data-pid="694"/);
    expect(html).not.toMatch(/<script|<link|@import|url\(/i);
  });

  it('--redact hides host, users, UUID and serial in terminal, JSON, Markdown and HTML alike', () => {
    const out = path.join(dir, 'red.html');
    const outputs = [
      runCli(['check', '--from', snap, '--redact', '-v']).stdout,
      runCli(['check', '--from', snap, '--redact', '--json']).stdout,
      runCli(['check', '--from', snap, '--redact', '--markdown', '--html', out]).stdout,
    ];
    outputs.push(fs.readFileSync(out, 'utf8'));
    for (const o of outputs) {
      for (const secret of ['gpu-node-17', 'alice', 'bob', UUID, SERIAL, '10.20.30.40'])
        expect(o).not.toContain(secret);
      expect(o).toContain('host-1');
    }
    const json = JSON.parse(outputs[1]!);
    expect(json.snapshot.nvidia.gpus[0].uuid).toBe('GPU-UUID-1');
    expect(json.snapshot.processes.list[0].user).toBe('user-2');
  });
});
