// Types of env-blocks.mjs (the test of the Chinese reader uses the bench's phrasings).
export interface CorpusCase {
  id: string;
  framework: string | null;
  framework_version: string | null;
  log: string;
  env: Record<string, string | undefined>;
  label: string;
  secondary?: string | null;
}
export function envBlockZh(c: CorpusCase): string;
export const ZH_PHRASINGS: Record<string, unknown>;
