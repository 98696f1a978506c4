// nvidia-smi pmon as the H200 printed it: one sample can miss a job whose kernels alternate with another's, so fix
// reads several samples and keeps each process's busiest.
import { describe, expect, it } from 'vitest';
import { PMON_ARGS, parsePmon } from '../../src/gather/nvidia/gpu-activity.js';

const HEAD = [
  '# gpu         pid   type     sm    mem    enc    dec    jpg    ofa    command ',
  '# Idx           #    C/G      %      %      %      %      %      %    name ',
];
const sample = (rows: [number, string][]) => [
  ...HEAD,
  ...rows.map(([pid, sm]) => `    0   ${pid}     C     ${sm}      -      -      -      -      -    python3`),
];

describe('nvidia-smi pmon', () => {
  it('asks for several samples', () => {
    expect(Number(PMON_ARGS[PMON_ARGS.indexOf('-c') + 1])).toBeGreaterThan(1);
  });

  it('keeps the busiest sample of each process; "-" in every sample is idle', () => {
    const text = [
      ...sample([
        [458, '24'],
        [460, '-'],
        [632, '-'],
      ]),
      ...sample([
        [458, '-'],
        [460, '74'],
        [632, '-'],
      ]),
      ...sample([
        [458, '31'],
        [460, '12'],
        [632, '-'],
      ]),
    ].join('\n');
    const m = parsePmon(text);
    expect(m?.get(460)).toBe(74);
    expect(m?.get(458)).toBe(31);
    expect(m?.get(632)).toBe(0);
  });

  it('no header: nothing known (null), not "idle"', () => {
    expect(parsePmon('NVIDIA-SMI has failed')).toBeNull();
  });
});
