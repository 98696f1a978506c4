// The error signatures: data (one JSON file per family), compiled once. Their schema (./schema.ts) is checked
// by the build (scripts/validate-data.ts) and the tests, not at every start.
// Each row says which framework prints the line, what it indicates (root-cause ids with weights: how strongly
// the line alone points at each cause), and what it extracts (named regex groups). See README in this folder.
import type { Framework, SignatureKind } from '../types.js';
import type { FrameworkCueRow, SignatureRow } from './schema.js';
import memory from './memory.json' with { type: 'json' };
import cudnn from './cudnn.json' with { type: 'json' };
import libraries from './libraries.json' with { type: 'json' };
import driver from './driver.json' with { type: 'json' };
import device from './device.json' with { type: 'json' };
import arch from './arch.json' with { type: 'json' };
import hardware from './hardware.json' with { type: 'json' };
import misc from './misc.json' with { type: 'json' };
import context from './context.json' with { type: 'json' };
import frameworks from './frameworks.json' with { type: 'json' };

export interface Signature extends SignatureRow {
  re: RegExp;
  kind: SignatureKind;
}

export const SIGNATURE_FILES: Record<string, unknown[]> = { memory, cudnn, libraries, driver, device, arch, hardware, misc, context };

function compile(): Signature[] {
  const out: Signature[] = [];
  const seen = new Set<string>();
  for (const [file, rows] of Object.entries(SIGNATURE_FILES)) {
    for (const raw of rows) {
      const row = raw as SignatureRow;
      if (seen.has(row.id)) throw new Error(`signature ${row.id} defined twice (${file}.json)`);
      seen.add(row.id);
      // 'i' by default: the same message appears capitalised differently across versions
      out.push({ ...row, re: new RegExp(row.pattern, row.flags ?? 'i') });
    }
  }
  return out;
}

let cached: Signature[] | undefined;
export function signatures(): Signature[] {
  cached ??= compile();
  return cached;
}

export interface FrameworkCue {
  framework: Framework;
  re: RegExp;
  weight: number;
}
let cues: FrameworkCue[] | undefined;
export function frameworkCues(): FrameworkCue[] {
  cues ??= frameworks.map((r) => {
    const row = r as FrameworkCueRow;
    return { framework: row.framework, re: new RegExp(row.pattern, 'i'), weight: row.weight };
  });
  return cues;
}

/**
 * A cheap test every line passes before the signatures run: a line without any of these words cannot match
 * any signature (a test checks that every signature example passes it). Keeps multi-GB logs fast.
 */
export const PREFILTER =
  /cud|cublas|cufft|nvidia|nvml|nvrm|gpu|driver|memory|alloc|device|\.so\b|\.so\.|\.dll|dnn|xla|resource_exhausted|ecc\b|kernel|ptx|capabilit|symbol|dynamic librar|out of|segment|sigsegv|signal 11|assert|launch|free\(|malloc|corrupt|reboot|suspend|resum|hibernat|sleep|ram\b|server|process|program|user|instance|conda|ld_library|oom|killed|bus\b|xid|error 80|sm_|compute_|nvcc|torch|shared|notebook|limit:|inuse:|in-use|bfc|large model|job|cluster|node|engine|algorithm|convolution|handle|symbol|ptxas|library|tensorrt/i;
