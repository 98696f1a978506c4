// Types of judge.mjs for the tests that import it (the script itself is plain JavaScript run by node on the GPU machine).
export interface ScenarioResult {
  m: { id: string; title?: string; framework?: string; causes: string[] };
  did: string;
  cells: Record<string, string>;
  agree: Record<string, boolean | null>;
  note?: string;
}
export function judgeScenario(dir: string): ScenarioResult;
export function renderTable(results: ScenarioResult[], extra: { title: string; did: string; said: string; row: string }[]): string;
export function jobFacts(dir: string, name: string): { name: string; exit: number; ok: boolean; ranOn: string | null; errLine: string; out: string } | null;
export function runJson(dir: string, name: string): unknown;
export function statusOf(check: unknown, id: string): string;
export function nodeExpectations(xml: string | null, dfText: string | null, dmesgExit: number | null, dmesgText: string | null): Record<string, { raw: string; want: string[] }>;
export function mappedCudnn(dir: string, fw: string): { from: string; files: string[] };
export function procsSelfRow(dirs: string[]): { title: string; did: string; said: string; row: string } | null;
