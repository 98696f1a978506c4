// Junk from nvidia-smi is refused before the XML parser (audit L7: 32 MiB of junk cost 1.26 GB and seconds).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSmiXml } from '../../src/gather/nvidia/parse-xml.js';
import { runCli } from '../helpers/cli.js';
import { fakeBin, FIXTURES, tempDir } from '../helpers/fake-bin.js';

describe('nvidia-smi output that is not its XML', () => {
  it('is refused by its first bytes, whatever its size', () => {
    expect(() => parseSmiXml('A'.repeat(32 * 1024 * 1024))).toThrow(
      /no <nvidia_smi_log> element in its first 4096 bytes \(it begins: "AAAA/,
    );
    expect(() => parseSmiXml('\x1b[2J junk')).toThrow(/it begins: "\\u001b\[2J junk"/);
    // the real capture still parses
    const real = fs.readFileSync(path.join(FIXTURES, 'h200/idle/nvidia-smi-q.xml'), 'utf8');
    expect(parseSmiXml(real).gpus).toHaveLength(1);
  });

  it('check with 100 MiB of junk from nvidia-smi -q -x: a one-line "unknown", fast', () => {
    const dir = tempDir();
    fakeBin(
      dir,
      'nvidia-smi',
      `case "$1" in -q) head -c 104857600 /dev/zero | tr '\\0' A ;; *) cat '${path.join(FIXTURES, 'h200/idle/query-gpu.csv')}' ;; esac`,
    );
    const r = runCli(['check', '--timeout', '30', '--no-color'], {
      env: { PATH: `${dir}:${process.env.PATH}` },
      timeoutMs: 60000,
    });
    // the area line says it once, the finding below gives the reason
    expect(r.stdout).toMatch(/\[\?\] GPU & driver: nvidia-smi failed \(below\)/);
    expect(r.stdout.replace(/\s+/g, ' ')).toMatch(
      /nvidia-smi -q -x printed something that is not its XML \(no <nvidia_smi_log> element in its first 4096 bytes/,
    );
  });
});
