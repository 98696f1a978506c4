import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { idleFrom, idleThreads } from '../../src/ports/worker.js';

describe('idleThreads', () => {
  const never = () => {
    throw new Error('the load average is not read when /proc/loadavg is');
  };

  it('counts the threads runnable now, this one not against itself', () => {
    // /proc/loadavg as Linux writes it: a minute's load of 0.98 that ended, and only this process running now
    expect(idleFrom(2, '0.98 0.84 1.06 1/85 28552\n', never)).toBe(2);
    expect(idleFrom(16, '11.20 9.01 8.40 12/1400 991\n', never)).toBe(5);
  });

  it('keeps one thread when every core is taken', () => {
    expect(idleFrom(2, '7.00 7.00 7.00 9/300 1\n', never)).toBe(1);
  });

  it('falls back to the load average where there is no /proc/loadavg (macOS) or it reads oddly', () => {
    expect(idleFrom(8, undefined, () => 2.6)).toBe(5);
    expect(idleFrom(8, 'garbage', () => 0)).toBe(8);
    expect(idleFrom(2, '', () => 5)).toBe(1);
  });

  it('on this machine: between one and the threads this process may use', () => {
    let text: string | undefined;
    try {
      text = readFileSync('/proc/loadavg', 'latin1');
    } catch {}
    const n = idleThreads();
    expect(n).toBeGreaterThanOrEqual(1);
    if (text !== undefined) expect(text).toMatch(/^\S+ \S+ \S+ \d+\/\d+ \d+\n$/);
  });
});
