// The facts of an environment are made once per (environment, libraries' consumers) pair and an installed
// framework's target once per facts object: shared by the checks that ask for them, never stale for another pair.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { machineFacts } from '../../src/judge/compat/facts.js';
import { targetFromInstalled } from '../../src/judge/compat/target.js';
import type { Snapshot } from '../../src/gather/snapshot/schema.js';
import { EXAMPLES } from '../fleet/h200-snapshot.js';

const whole = (): Snapshot => JSON.parse(fs.readFileSync(path.join(EXAMPLES, 'h200-full-idle.json'), 'utf8'));

describe('the environment facts and targets, made once', () => {
  it('are shared by two views of the same sections', () => {
    const s = whole();
    const view = { ...s, libraries: { ...s.libraries! } };
    const a = machineFacts(s);
    const b = machineFacts(view);
    expect(b.envs[0]).toBe(a.envs[0]);
    const torch = a.envs[0]!.frameworks.find((f) => f.framework === 'torch')!;
    expect(targetFromInstalled(torch)).toBe(targetFromInstalled(b.envs[0]!.frameworks[0]!));
  });

  it('are made again for other libraries: the cuDNN the loader resolves', () => {
    const s = whole();
    const before = machineFacts(s).envs[0]!.frameworks.find((f) => f.framework === 'torch')!;
    expect(before.cudnnLoaded?.value).toBe('9.19.0');
    // the same environment object, with torch's cuDNN resolved to the system's 9.14 copy
    const consumers = s.libraries!.consumers.map((c) =>
      c.framework === 'torch'
        ? {
            ...c,
            resolved: c.resolved.map((r) =>
              /^libcudnn\.so/.test(r.name)
                ? { ...r, version: '9.14.0', path: '/usr/lib/x86_64-linux-gnu/libcudnn.so.9' }
                : r,
            ),
          }
        : c,
    );
    const other = { ...s, libraries: { ...s.libraries!, consumers } };
    const after = machineFacts(other).envs[0]!.frameworks.find((f) => f.framework === 'torch')!;
    expect(after.cudnnLoaded?.value).toBe('9.14.0');
    expect(machineFacts(s).envs[0]!.frameworks.find((f) => f.framework === 'torch')!.cudnnLoaded?.value).toBe('9.19.0');
  });
});
