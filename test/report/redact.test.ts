import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { renderHtml } from '../../src/reporters/html/render.js';
import { renderMarkdown } from '../../src/reporters/markdown.js';
import { createRedactor, redactDeep } from '../../src/reporters/redact.js';
import { buildReportModel } from '../../src/reporters/report-model.js';
import { SERIAL, UUID, hogFindings, hogSnapshot } from './sample.js';

describe('--redact', () => {
  const snapshot = hogSnapshot();
  const result = { snapshot, findings: hogFindings(), log: ['ssh alice@gpu-node-17 from 10.20.30.40', 'cuDNN version 9.1.0.70 loaded from /home/alice/venv/lib', 'peer fe80::1ff:fe23:4567:890a up', 'bob ran it on gpu-node-17.example.com'] };
  const red = redactDeep(result, createRedactor(result));
  const all = JSON.stringify(red);

  it('leaves no user name, host name, home path, IP address, GPU UUID or serial', () => {
    for (const secret of ['alice', 'bob', 'gpu-node-17', UUID, '86cd2dae', SERIAL, '10.20.30.40', 'fe80::1ff']) expect(all).not.toContain(secret);
  });

  it('replaces consistently: the same value is the same placeholder everywhere', () => {
    expect(red.snapshot.host.name).toBe('host1');
    expect(red.snapshot.self.user).toBe('user1'); // alice: self.user comes first
    expect(red.snapshot.processes.list[0]!.user).toBe('user2'); // bob
    expect(red.snapshot.processes.list[0]!.cmdline).toEqual(['python3', '/home/user2/hog.py', '1200', '90']);
    expect(red.snapshot.env.LD_LIBRARY_PATH).toBe('/home/user1/cuda/lib64:/usr/local/cuda/lib64');
    expect(red.snapshot.env.SSH_CONNECTION_HOST).toBe('ip1');
    expect(red.snapshot.nvidia.ok && red.snapshot.nvidia.gpus[0]!.uuid).toBe('GPU-uuid-1');
    expect(red.snapshot.nvidia.ok && red.snapshot.nvidia.gpus[0]!.serial).toBe('serial-1');
    expect(red.findings[0]!.message).toBe('PID 694 (user2) holds 139.5 GiB on GPU 0: orphaned');
    expect(red.log).toEqual(['ssh user1@host1 from ip1', 'cuDNN version 9.1.0.70 loaded from /home/user1/venv/lib', 'peer ipv6-1 up', 'user2 ran it on host1']);
  });

  it('keeps what is not personal: versions that look like addresses, PIDs, sizes, root', () => {
    expect(red.snapshot.nvidia.ok && red.snapshot.nvidia.driverVersion).toBe('580.159.04');
    expect(red.snapshot.system.kernelModule?.line).toContain('580.159.04');
    const r = createRedactor();
    expect(r.text('nvidia-cudnn-cu12==8.9.7.29')).toBe('nvidia-cudnn-cu12==8.9.7.29');
    expect(r.text('libcudnn.so.9.1.0.70')).toBe('libcudnn.so.9.1.0.70');
    expect(r.text('9.1.0.70', 'version')).toBe('9.1.0.70');
    expect(r.text('/root/.cache and 127.0.0.1 and 00000000:00:06.0 at 12:34:56')).toBe('/root/.cache and 127.0.0.1 and 00000000:00:06.0 at 12:34:56');
    expect(r.text('listening on 192.168.1.20:8080')).toBe('listening on ip1:8080');
  });

  it('is applied before rendering, so the Markdown and the HTML show the same placeholders', () => {
    const m = buildReportModel({ kind: 'check', generatedAt: 'now', tool: { name: 'g', version: '0' }, snapshot: red.snapshot, findings: red.findings });
    const md = renderMarkdown(m);
    const html = renderHtml(m);
    for (const out of [md, html]) {
      expect(out).not.toContain('alice');
      expect(out).not.toContain(UUID);
      expect(out).toContain('GPU-uuid-1');
      expect(out).toContain('host1');
    }
  });

  it('never leaves a known host or user in any string it is given (property)', () => {
    const r = createRedactor({ snapshot });
    fc.assert(
      fc.property(fc.array(fc.constantFrom('alice', 'bob', 'gpu-node-17.example.com', ' ', '/', ':', '-', 'x', '.', '@', UUID, '10.20.30.40')), (parts) => {
        const out = r.text(parts.join(''));
        // A known value glued to word characters is another word ("alicex"): only whole words must go.
        for (const w of out.split(/[^\w.-]+/)) expect(['alice', 'bob', 'gpu-node-17.example.com', '10.20.30.40']).not.toContain(w);
        expect(out).not.toContain('86cd2dae');
      }),
      { numRuns: 300 },
    );
  });
});
