import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSmiXml, UNREAD, warmUpParser, withoutUnread } from '../../src/gather/nvidia/parse-xml.js';
import { parseQueryGpu } from '../../src/gather/nvidia/parse-query.js';
import { FIXTURES } from '../helpers/fake-bin.js';

const read = (p: string) => fs.readFileSync(path.join(FIXTURES, 'h200', p), 'utf8');

describe('nvidia-smi -q -x parser (real H200 captures)', () => {
  it('reads the idle machine', () => {
    const r = parseSmiXml(read('idle/nvidia-smi-q.xml'));
    expect(r.driverVersion).toBe('580.159.04');
    expect(r.cudaVersion).toBe('13.0');
    expect(r.gpus).toHaveLength(1);
    const g = r.gpus[0]!;
    expect(g).toMatchObject({
      index: 0,
      name: 'NVIDIA H200',
      uuid: 'GPU-86cd2dae-7950-6451-53ef-58bd5f0e3df7',
      busId: '00000000:00:06.0',
      architecture: 'Hopper',
      persistenceMode: 'Enabled',
      computeMode: 'Default',
      migMode: 'Disabled',
    });
    expect(g.memory).toEqual({ totalMiB: 143771, usedMiB: 0, freeMiB: 143156, reservedMiB: 616 });
    expect(g.ecc.mode).toBe('Enabled');
    expect(g.ecc.volatileUncorrected).toBe(0);
    expect(g.retiredPages.doubleBit).toBeNull(); // "N/A" on this GPU (it remaps rows instead)
    expect(g.remappedRows).toEqual({ pending: 'No', failure: 'No', uncorrectable: 0 });
    expect(g.processes).toEqual([]);
  });

  it('reads the process that holds the memory', () => {
    const r = parseSmiXml(read('hog/nvidia-smi-q-hog.xml'));
    expect(r.gpus[0]!.processes).toEqual([{ pid: 694, name: 'python3', usedMiB: 142848, type: 'C' }]);
    expect(r.gpus[0]!.memory.usedMiB).toBeGreaterThan(140000);
  });

  it('keeps versions as strings: "12.10" is not 12.1', () => {
    const xml = read('idle/nvidia-smi-q.xml').replace(
      '<cuda_version>13.0</cuda_version>',
      '<cuda_version>12.10</cuda_version>',
    );
    expect(parseSmiXml(xml).cudaVersion).toBe('12.10');
  });

  it('rejects text that is not nvidia-smi XML with a one-line reason', () => {
    expect(() => parseSmiXml("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.")).toThrow(
      /nvidia_smi_log/,
    );
    expect(() => parseSmiXml('<a><b></a>')).toThrow(/XML|nvidia_smi_log/);
    expect(() => parseSmiXml('<nvidia_smi_log></nvidia_smi_log>')).toThrow(/driver_version/);
  });
});

describe('--query-gpu CSV parser', () => {
  it('reads the compute capability the XML lacks', () => {
    expect(parseQueryGpu(read('idle/query-gpu.csv'))).toEqual([
      {
        index: 0,
        uuid: 'GPU-86cd2dae-7950-6451-53ef-58bd5f0e3df7',
        name: 'NVIDIA H200',
        computeCapability: '9.0',
        busId: '00000000:00:06.0',
      },
    ]);
  });
  it('skips garbage lines and "[N/A]" capabilities', () => {
    expect(parseQueryGpu('garbage\n\n1, GPU-x, Tesla K80, 470.1, 11441, 0, 11441, [N/A], 0000:00:04.0\n')).toEqual([
      { index: 1, uuid: 'GPU-x', name: 'Tesla K80', computeCapability: null, busId: '0000:00:04.0' },
    ]);
  });
});

describe('nvidia-smi -q -x: the elements nothing reads are cut before parsing', () => {
  // every capture in the fixtures (1 GPU idle, held by a process, degraded, two holders)
  const captures = [
    'h200/idle/nvidia-smi-q.xml',
    'h200/hog/nvidia-smi-q-hog.xml',
    'h200/hog/smi-one-proc.xml',
    'h200-truth/holders/smi-both.xml',
    'node/h200-nvidia-smi-q.xml',
    'node/h200-nvidia-smi-q-degraded.xml',
  ].map((f) => [f, fs.readFileSync(path.join(FIXTURES, f), 'utf8')] as const);
  // `<name >` is the same element to the XML parser, but not what the cut looks for: the whole text is parsed
  const uncut = (xml: string) => UNREAD.reduce((x, n) => x.replaceAll(`<${n}>`, `<${n} >`), xml);

  it.each(captures)('%s: the same facts as parsing the whole text', (_f, xml) => {
    expect(withoutUnread(xml).length).toBeLessThan(xml.length * 0.6);
    expect(uncut(xml)).not.toBe(xml);
    expect(withoutUnread(uncut(xml))).toBe(uncut(xml));
    expect(parseSmiXml(xml)).toEqual(parseSmiXml(uncut(xml)));
  });

  it('an element never closed (output cut off) is left to the parser, as the rest after it', () => {
    const xml = captures[0]![1];
    const cutOff = xml.slice(0, xml.indexOf('</supported_clocks>'));
    expect(withoutUnread(cutOff)).toContain('<supported_clocks>');
    expect(parseSmiXml(cutOff)).toEqual(parseSmiXml(uncut(cutOff)));
  });

  it('the clock reasons, with their counters cut beside them, read as before', () => {
    const xml = captures[0]![1].replace(
      '<clocks_event_reason_sw_power_cap>Not Active</clocks_event_reason_sw_power_cap>',
      '<clocks_event_reason_sw_power_cap>Active</clocks_event_reason_sw_power_cap>',
    );
    expect(parseSmiXml(xml).gpus[0]!.clockEventReasons).toEqual(['gpu_idle', 'sw_power_cap']);
    expect(parseSmiXml(xml)).toEqual(parseSmiXml(uncut(xml)));
  });
});

describe('the parser warm-up (run while nvidia-smi works)', () => {
  it('takes the whole path of a real answer: a GPU, its memory, PCIe link, a process, a cut element', () => {
    const r = warmUpParser();
    expect(r).not.toBeNull();
    expect(r!.gpus).toHaveLength(1);
    expect(r!.gpus[0]).toMatchObject({
      name: 'warm-up',
      busId: '00000000:00:00.0',
      memory: { totalMiB: 2, usedMiB: 1, freeMiB: 1 },
      processes: [{ pid: 1, name: 'a & b', usedMiB: 1, type: 'C' }],
    });
    expect(r!.gpus[0]!.pcie).not.toBeNull();
  });

  it('leaves what a real answer parses to unchanged', () => {
    const xml = read('idle/nvidia-smi-q.xml');
    const before = parseSmiXml(xml);
    warmUpParser();
    expect(parseSmiXml(xml)).toEqual(before);
  });
});
