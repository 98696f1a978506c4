// What the --deep convolution says: passed, could not get memory, cuDNN (or another library) is broken,
// or something else. The seed of this tool: "Failed to get convolution algorithm" / CUDNN_STATUS_* is
// printed for both, and only the lines around it, or a retry with memory growth, tell them apart.
import type { ConvAttempt, FrameworkProbe } from '../../../gather/snapshot/schema-python.js';
import signatures from '../../../knowledge/python/conv-signatures.json' with { type: 'json' };

export type ConvVerdict =
  /** the convolution ran as configured */
  | { kind: 'pass' }
  /** failed as configured, ran once the framework took memory as needed */
  | { kind: 'memory-preallocation'; failed: ConvAttempt; passed: ConvAttempt }
  /** failed every way, and the errors are about memory */
  | { kind: 'memory'; failed: ConvAttempt[]; signature: string }
  /** failed every way, and the errors are about cuDNN */
  | { kind: 'cudnn'; failed: ConvAttempt[]; signature: string }
  | { kind: 'other'; failed: ConvAttempt[] }
  /** no convolution was attempted (no GPU visible to the framework, import failed) */
  | { kind: 'not-run'; reason: string };

interface SignatureRow {
  kind: 'memory' | 'cudnn';
  pattern: string;
  source: string;
}

const ROWS = (signatures as SignatureRow[]).map((r) => ({ ...r, re: new RegExp(r.pattern, 'i') }));

/** The signature of `kind` that appears first in the text (the line a reader meets first), or null. */
export function matchSignature(kind: 'memory' | 'cudnn', text: string): string | null {
  let best: { at: number; text: string } | null = null;
  for (const r of ROWS) {
    if (r.kind !== kind) continue;
    const m = r.re.exec(text);
    if (m && (!best || m.index < best.at || (m.index === best.at && m[0].length > best.text.length)))
      best = { at: m.index, text: m[0] };
  }
  return best?.text ?? null;
}

export function attemptText(a: ConvAttempt): string {
  return a.error ? `${a.error.type}: ${a.error.message}\n${a.error.traceback ?? ''}` : '';
}

export function convVerdict(p: FrameworkProbe): ConvVerdict {
  if (p.imported !== true)
    return {
      kind: 'not-run',
      reason: p.importError ? `the import failed (${p.importError.type})` : (p.exitDetail ?? 'the probe did not run'),
    };
  if (p.conv.length === 0)
    return {
      kind: 'not-run',
      reason: typeof p.info?.convSkipped === 'string' ? p.info.convSkipped : 'no convolution was attempted',
    };
  const configured = p.conv.filter((c) => c.mode === 'configured');
  if (configured.some((c) => c.ok)) return { kind: 'pass' };
  const retryOk = p.conv.find((c) => c.mode !== 'configured' && c.ok);
  const failed = p.conv.filter((c) => !c.ok);
  // torch's retry runs in the same process, and torch checks cuDNN once per process (its version check
  // caches the version before it raises): a retry that passes after a cuDNN error proves nothing about memory.
  const onceOnly =
    retryOk?.mode === 'no-cache' &&
    failed[0] !== undefined &&
    !matchSignature('memory', attemptText(failed[0])) &&
    matchSignature('cudnn', attemptText(failed[0]));
  if (onceOnly) return { kind: 'cudnn', failed, signature: onceOnly };
  if (retryOk && failed[0]) return { kind: 'memory-preallocation', failed: failed[0], passed: retryOk };
  // Memory is decided first: under memory pressure cuDNN reports CUDNN_STATUS_NOT_INITIALIZED /
  // INTERNAL_ERROR and TensorFlow "Failed to get convolution algorithm", so a cuDNN status alone does not
  // prove cuDNN broken when an out-of-memory line is next to it.
  const text = `${failed.map(attemptText).join('\n')}\n${p.stderrTail}`;
  const mem = matchSignature('memory', text);
  if (mem) return { kind: 'memory', failed, signature: mem };
  const cudnn = matchSignature('cudnn', text);
  if (cudnn) return { kind: 'cudnn', failed, signature: cudnn };
  return { kind: 'other', failed };
}
