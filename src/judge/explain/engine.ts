// The public API of `explain`: from an error log (text or a stream) to a ranked Diagnosis.
// Used by the `explain` command and by `run -- CMD` (with the tail of the failed job and a snapshot
// taken when it failed). Stable: keep these signatures.
import { Collector } from './collect.js';
import { diagnose } from './diagnose.js';
import { LineScanner } from './read/scan.js';
import { readSplit, type SplitFile } from './read/split.js';
import { registry } from './signatures/index.js';
import type { Diagnosis, ExplainOptions } from './types.js';

export type { Cause, CauseFix, Diagnosis, EnvironmentFacts, ExplainOptions, LogEvidence, Signal } from './types.js';

/** Explain a log held in memory. */
export function explainText(text: string, opts: ExplainOptions = {}): Diagnosis {
  const { collector, truncatedLines } = collectText(text, opts);
  return diagnose({
    collector,
    bytes: Buffer.byteLength(text),
    truncatedLines,
    sources: [opts.sourceName ?? 'text'],
    ...(opts.snapshot ? { snapshot: opts.snapshot } : {}),
    ...(opts.frameworkHint ? { frameworkHint: opts.frameworkHint } : {}),
    ...(opts.priors ? { priors: opts.priors } : {}),
  });
}

/** The reading half alone (the accuracy bench reads each report once and diagnoses it with many priors). */
export function collectText(
  text: string,
  opts: Pick<ExplainOptions, 'noPrefilter'> = {},
): { collector: Collector; truncatedLines: number } {
  const col = new Collector();
  const scan = new LineScanner(opts.noPrefilter ? null : registry().anchors, (l) => col.onLine(l));
  scan.push(text);
  scan.end();
  return { collector: col, truncatedLines: scan.truncatedLines };
}

/** One input of a multi-input explanation: a name and its chunks (a Readable, or any async iterable). */
export interface ExplainInput {
  name: string;
  chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>;
  /** the same bytes as a regular file, opened: a big one's first pass may then run over threads (closed after) */
  file?: SplitFile;
}

/**
 * Explain one or more streamed inputs in bounded memory (multi-GB logs): lines are numbered across the
 * inputs as if they were concatenated; each evidence line says which input it came from.
 */
export async function explainStream(
  input: NodeJS.ReadableStream | AsyncIterable<Uint8Array | string> | ExplainInput[],
  opts: ExplainOptions = {},
): Promise<Diagnosis> {
  const inputs: ExplainInput[] = Array.isArray(input)
    ? input
    : [{ name: opts.sourceName ?? 'input', chunks: input as AsyncIterable<Uint8Array | string> }];
  // line ranges per input, to label evidence with its file
  const ranges: Array<{ from: number; name: string }> = [];
  const col = new Collector((line) => {
    let name: string | undefined;
    for (const r of ranges) if (line >= r.from) name = r.name;
    return inputs.length > 1 ? name : undefined;
  });
  const only = inputs.length === 1 ? inputs[0]! : undefined;
  if (only?.file && !opts.noPrefilter) {
    // the first pass over threads, the rest in order here, as below; else (null) the file is read below instead
    const threaded = new Collector();
    const split = await readSplit(only.file, registry().anchors, (l) => threaded.onLine(l), opts.onProgress);
    if (split) {
      only.file.reader.close();
      return diagnose({
        collector: threaded,
        bytes: only.file.reader.size,
        truncatedLines: split.truncatedLines,
        sources: [only.name],
        ...(opts.snapshot ? { snapshot: opts.snapshot } : {}),
        ...(opts.frameworkHint ? { frameworkHint: opts.frameworkHint } : {}),
        ...(opts.priors ? { priors: opts.priors } : {}),
      });
    }
  }
  let offset = 0;
  let bytes = 0;
  let truncated = 0;
  for (const inp of inputs) {
    ranges.push({ from: offset + 1, name: inp.name });
    const base = offset;
    const split = new LineScanner(opts.noPrefilter ? null : registry().anchors, (l) =>
      col.onLine(base === 0 ? l : { ...l, no: base + l.no }),
    );
    let sinceProgress = 0;
    for await (const chunk of inp.chunks) {
      split.push(chunk);
      sinceProgress += typeof chunk === 'string' ? chunk.length : chunk.byteLength;
      if (opts.onProgress && sinceProgress >= 8 * 1024 * 1024) {
        opts.onProgress(bytes + split.bytes);
        sinceProgress = 0;
      }
    }
    split.end();
    offset += split.lines;
    bytes += split.bytes;
    truncated += split.truncatedLines;
  }
  return diagnose({
    collector: col,
    bytes,
    truncatedLines: truncated,
    sources: inputs.map((i) => i.name),
    ...(opts.snapshot ? { snapshot: opts.snapshot } : {}),
    ...(opts.frameworkHint ? { frameworkHint: opts.frameworkHint } : {}),
    ...(opts.priors ? { priors: opts.priors } : {}),
  });
}
