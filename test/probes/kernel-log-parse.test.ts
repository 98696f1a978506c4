// The kernel log's NVRM lines, found without splitting the whole log into lines: the same counts and Xid events
// as the line-by-line reading, on the captures and on logs built around the edges (first and last line, a line
// without its newline, two NVRM on one line, carriage returns, nothing at all).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseKernelLog } from '../../src/gather/kernel-log.js';
import { FIXTURES } from '../helpers/fake-bin.js';

/** The reading it replaces: every line, kept when it names NVRM. */
function lineByLine(text: string) {
  const XID = /NVRM: Xid \(?PCI:([0-9a-fA-F:.]+)\)?: (\d+),\s*(.*)$/;
  const xid: { bus: string; code: number; text: string; seconds: number | null }[] = [];
  let nvrmLines = 0;
  for (const raw of text.split('\n')) {
    if (!raw.includes('NVRM')) continue;
    nvrmLines++;
    const m = XID.exec(raw);
    if (!m) continue;
    const dm = /^\[\s*(\d+(?:\.\d+)?)\]/.exec(raw);
    const km = /^\d+,\d+,(\d+),[^;]*;/.exec(raw);
    const seconds = dm ? Number(dm[1]) : km ? Number(km[1]) / 1e6 : null;
    xid.push({ bus: m[1]!, code: Number(m[2]), text: m[3]!.trim().slice(0, 300), seconds });
  }
  return { readable: true, nvrmLines, xid: xid.slice(-50) };
}

const XID_LINE = '[  437.812449] NVRM: Xid (PCI:0000:18:00): 79, pid=1234, GPU has fallen off the bus.';
const KMSG_LINE = '4,1227,437812449932,c;NVRM: Xid (PCI:0000:19:00): 48, An uncorrectable double bit error';
const OTHER = '[    1.000000] usb 1-1: new high-speed USB device number 2 using xhci_hcd';

describe('kernel log: NVRM lines found in the whole text', () => {
  const captures = ['dcgm-kmsg-xid.txt', 'dcgm-dmesg-xid.txt']
    .map((f) => path.join(FIXTURES, 'node', f))
    .filter((f) => fs.existsSync(f));

  it.each(captures)('%s: as read line by line', (f) => {
    const text = fs.readFileSync(f, 'utf8');
    expect(parseKernelLog(text).xid.length).toBeGreaterThan(0);
    expect(parseKernelLog(text)).toEqual(lineByLine(text));
  });

  const cases: [string, string][] = [
    ['nothing', ''],
    ['no NVRM', `${OTHER}\n${OTHER}\n`],
    ['NVRM first, no newline at the end', `${XID_LINE}\n${OTHER}\n${KMSG_LINE}`],
    ['NVRM at offset 0', 'NVRM: Xid (PCI:0000:01:00): 13, Graphics Exception'],
    ['two NVRM on one line', `${OTHER}\nNVRM: NVRM: Xid (PCI:0000:01:00): 31, fault\n`],
    ['carriage returns', `${XID_LINE}\r\n${OTHER}\r\n${KMSG_LINE}\r\n`],
    ['empty lines around', `\n\n${XID_LINE}\n\n\nNVRM\n\n`],
    ['only a newline before', `\nNVRM`],
  ];
  it.each(cases)('%s', (_name, text) => {
    expect(parseKernelLog(text)).toEqual(lineByLine(text));
  });

  it('more Xid events than it keeps: the most recent 50, as before', () => {
    const text = Array.from({ length: 120 }, (_, i) => XID_LINE.replace(': 79,', `: ${i},`)).join('\n');
    const r = parseKernelLog(text);
    expect(r.nvrmLines).toBe(120);
    expect(r.xid.map((x) => x.code)).toEqual(Array.from({ length: 50 }, (_, i) => 70 + i));
    expect(r).toEqual(lineByLine(text));
  });
});
