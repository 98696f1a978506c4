// The capture-built sections of the test snapshots must be what the real probes would write: validated
// against the sections' own schemas, so the fleet/diff/prometheus tests cannot drift into a made-up shape.
import { describe, expect, it } from 'vitest';
import { LibrariesSection } from '../../src/gather/snapshot/schema-libraries.js';
import { PythonSection } from '../../src/gather/snapshot/schema-python.js';
import { librariesSectionFromCaptures, pythonSectionFromCaptures, realSnapshot } from './h200-snapshot.js';

describe('capture-built snapshot sections', () => {
  it('the python section validates against src/gather/snapshot/schema-python.ts', () => {
    const r = PythonSection.safeParse(pythonSectionFromCaptures());
    expect(r.success, JSON.stringify(r.error?.issues[0])).toBe(true);
  });
  it('the libraries section validates against src/gather/snapshot/schema-libraries.ts', () => {
    const r = LibrariesSection.safeParse(librariesSectionFromCaptures());
    expect(r.success, JSON.stringify(r.error?.issues[0])).toBe(true);
  });
  it('the real snapshots load with them', () => {
    const s = realSnapshot('h200-memory-held.json') as unknown as { python: unknown; host: { name: string } };
    expect(s.host.name).toBe('vm');
    expect(s.python).toBeDefined();
  });
});
