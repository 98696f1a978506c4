// Build-time check of the data the CLI reads without a schema at run time: the knowledge tables and the
// error signatures. scripts/build.mjs bundles and runs this before bundling the CLI, so a bad edit stops the
// build with the file and the first problems instead of producing a wrong verdict later. (The tests check
// the same, and more.)
import { rawKnowledge } from '../src/knowledge/index.js';
import { KNOWLEDGE_SCHEMAS } from '../src/knowledge/schemas.js';
import { Registry, SIGNATURE_FILES } from '../src/judge/explain/signatures/index.js';
import { FamilyRow, FrameworkCueRow, SignatureRow } from '../src/judge/explain/signatures/schema.js';
import familyRows from '../src/judge/explain/signatures/families.json' with { type: 'json' };
import frameworkCues from '../src/judge/explain/signatures/frameworks.json' with { type: 'json' };
import type { ZodType } from 'zod';

const KNOWLEDGE: Record<string, ZodType> = KNOWLEDGE_SCHEMAS;

export function validateData(): string[] {
  const problems: string[] = [];
  const check = (where: string, schema: ZodType, doc: unknown) => {
    const r = schema.safeParse(doc);
    if (!r.success)
      for (const i of r.error.issues.slice(0, 3))
        problems.push(`${where}: ${i.message} at ${i.path.join('.') || '(top)'}`);
  };
  for (const [file, doc] of Object.entries(rawKnowledge())) check(`src/knowledge/${file}`, KNOWLEDGE[file]!, doc);
  const ids = new Set<string>();
  for (const [file, rows] of Object.entries(SIGNATURE_FILES)) {
    rows.forEach((row, i) => {
      check(`src/judge/explain/signatures/${file}.json[${i}]`, SignatureRow, row);
      const id = (row as { id?: unknown }).id;
      if (typeof id === 'string' && ids.has(id))
        problems.push(`src/judge/explain/signatures/${file}.json[${i}]: signature ${id} defined twice`);
      if (typeof id === 'string') ids.add(id);
      const { pattern, flags } = row as { pattern?: unknown; flags?: unknown };
      try {
        if (typeof pattern === 'string') new RegExp(pattern, typeof flags === 'string' ? flags : 'i');
      } catch (err) {
        problems.push(`src/judge/explain/signatures/${file}.json[${i}]: ${(err as Error).message}`);
      }
    });
  }
  frameworkCues.forEach((row, i) => check(`src/judge/explain/signatures/frameworks.json[${i}]`, FrameworkCueRow, row));
  familyRows.forEach((row, i) => check(`src/judge/explain/signatures/families.json[${i}]`, FamilyRow, row));
  // the run compiles a signature's patterns when a line first needs them: compile all of them here (the
  // catalog's generated ones too), and build the prefilter from their anchors
  if (problems.length === 0) {
    try {
      const reg = new Registry();
      for (const s of reg.signatures) {
        try {
          void s.re;
          void s.needs;
        } catch (err) {
          problems.push(`signature ${s.id} (${s.source}): ${(err as Error).message}`);
        }
      }
      for (const c of reg.cues) void c.re;
    } catch (err) {
      problems.push(`src/judge/explain/signatures: ${(err as Error).message}`);
    }
  }
  return problems;
}
