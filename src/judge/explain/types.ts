// The shape `explain` produces (CONTRACT.md: `explain --json`), and the pieces the engine passes between stages.
import type { RootCauseId } from '../../knowledge/root-causes.js';

export const DIAGNOSIS_SCHEMA_VERSION = 1;

/** A line of the input that supports a conclusion. `line` is 1-based in the (concatenated) input. */
export interface LogEvidence {
  line: number;
  text: string;
  /** where the line came from when several inputs were read, or "machine" for live facts */
  source?: string;
}

export interface CauseFix {
  text: string;
  /** safe to copy and run: environment variables, pip installs, code to add */
  commands: string[];
  /** steps the user must judge (ending a process, installing a driver): shown, never run */
  manual?: string[];
}

/** The cheapest check that tells a candidate cause from the others, and the command that runs it. */
export interface CauseTest {
  text: string;
  command?: string;
  /** 1: reads the machine, 2: reruns the job with a setting, 3: installs or upgrades something */
  cost: 1 | 2 | 3;
}

export interface Cause {
  id: RootCauseId;
  /** 0..1: the share of the evidence that points here, scaled down when the evidence is thin */
  confidence: number;
  summary: string;
  evidence: LogEvidence[];
  fix: CauseFix;
  /** the reasoning, one sentence per step, for the reader who wants to check it */
  why: string[];
  /** the why-lines that read a message of the input: its line, its meaning, and what it means under this cause */
  readings?: import('./readings.js').Reading[];
  /** raw score before normalisation (for tests and -v) */
  score: number;
  /** how to tell this cause from the others */
  test?: CauseTest;
  /** the environment variable whose value caused the failure, when a message names one */
  setting?: string;
}

/** A signature that matched: which, where, and what it carried. */
export interface Signal {
  signature: string;
  kind: SignatureKind;
  /** the first lines it matched on (bounded), and how many times it matched in all */
  lines: LogEvidence[];
  count: number;
  /** named values extracted from the first match ("runtime": "8.0.5") */
  values: Record<string, string>;
  summary: string;
}

export type SignatureKind = 'evidence' | 'symptom' | 'memory' | 'family' | 'context' | 'noise';

export type Framework =
  | 'tensorflow'
  | 'keras'
  | 'pytorch'
  | 'jax'
  | 'xla'
  | 'cupy'
  | 'onnxruntime'
  | 'caffe'
  | 'mxnet'
  | 'cntk'
  | 'rapids'
  | 'paddle'
  | 'other';

/** Facts about the machine read from the text (issue template, collect_env, nvidia-smi header, pip list, log lines). */
export interface EnvironmentFacts {
  framework?: Fact<Framework>;
  frameworkVersion?: Fact;
  /** CUDA version the framework was built with ("+cu113", "CUDA used to build PyTorch: 11.3") */
  buildCuda?: Fact;
  /** CUDA the user says is installed (toolkit or runtime) */
  cuda?: Fact;
  /** the highest CUDA the driver supports (nvidia-smi header, "found version 11060") */
  driverCuda?: Fact;
  cudnn?: Fact;
  driver?: Fact;
  gpus: GpuFact[];
  os?: Fact;
  python?: Fact;
  /** pip, conda, docker, source, colab... (lowercase words) */
  install: Fact[];
  /** free-text notes (kept for display) */
  notes: Fact[];
  /** a container is involved (docker, kubernetes, singularity...) */
  container?: Fact;
  /** sm_XX list the framework build supports, when printed (PyTorch's warning) */
  buildArchs?: Fact<string[]>;
}

export interface Fact<T = string> {
  value: T;
  line: number;
  text: string;
}

export interface GpuFact {
  name: string;
  /** "8.6" */
  computeCapability?: string;
  totalMiB?: number;
  freeMiB?: number;
  /** the pool a framework took when it created the device (TensorFlow's "Created TensorFlow device … with N MB") */
  poolMiB?: number;
  line: number;
  text: string;
}

export interface Diagnosis {
  schemaVersion: typeof DIAGNOSIS_SCHEMA_VERSION;
  causes: Cause[];
  signals: Signal[];
  environment: EnvironmentFacts;
  /** what was read */
  input: { lines: number; bytes: number; truncatedLines: number; sources: string[] };
  /** facts of the machine that were combined with the log, when a snapshot was given */
  machine?: { used: boolean; host?: string; notes: string[] };
  /** one line: what the verdict is, or that nothing in the input points anywhere */
  verdict: string;
  /** the input cannot separate its candidates: the first place is not a finding, the tests are */
  ambiguous: boolean;
  /** only the vocabulary of a failure was recognised, not a message the catalog knows */
  unknownMessage: boolean;
  /** the weights before calibration: all causes together, and the first cause's share (for the fit and -v) */
  weights: { total: number; topShare: number; onlyMessages?: boolean };
}

export interface ExplainOptions {
  /** facts of the machine at the moment of failure (live or --from); omitted with --no-machine */
  snapshot?: import('../../gather/snapshot/schema.js').Snapshot;
  /** the framework, when the caller knows it better than the log */
  frameworkHint?: string;
  /** label for the input in evidence (file name) */
  sourceName?: string;
  /** called now and then with bytes read so far (progress display) */
  onProgress?: (bytesRead: number) => void;
  /** the priors to rank with (default: the fitted ones shipped with the tool; the accuracy bench passes its own) */
  priors?: import('./priors/model.js').PriorModel;
  /** read every line, without the literal prefilter (tests compare both) */
  noPrefilter?: boolean;
}
