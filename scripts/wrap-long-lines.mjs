#!/usr/bin/env node
// Brings the lines of src/**/*.ts within the width (120, biome's) where the formatter cannot: it splits long string
// literals into a concatenation ('a ' +\n 'b') at word boundaries (between CJK characters or after full-width
// punctuation in Chinese text), and rewraps long comments (a `//` paragraph, a JSDoc block). Values are unchanged:
// the pieces join to the same string. Then biome formats the files it changed. Re-runnable and idempotent: a line
// within the width is never touched, and what cannot be split (template literals, code, a URL) is listed and left.
// JSON is left alone.
//   node scripts/wrap-long-lines.mjs [--root DIR] [--check] [FILE...]
//   --root DIR  the checkout (default: this one); FILEs relative to it (default: every .ts file under src/)
//   --check     change nothing; exit 1 when a file would change
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const WIDTH = 120;

const CJK = /[\u3000-\u303f\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]/;
/** after these a Chinese line may break (full-width punctuation) */
const CJK_BREAK_AFTER = /[，。；：、！？）」』】]/;

/**
 * Where a string's raw text (between its quotes) may break: after a space, after full-width punctuation, between
 * two CJK characters; never inside an escape sequence or a {slot}'s name.
 */
function breakPoints(raw, template) {
  const out = [];
  let depth = 0;
  let code = 0;
  for (let i = 1; i < raw.length; i++) {
    const prev = raw[i - 1];
    // in a template, never inside a ${…} (its braces counted); in a string, not inside a {slot}'s name
    if (template) {
      if (prev === '{' && (code > 0 || raw[i - 2] === '$')) code++;
      else if (prev === '}' && code > 0) code--;
      if (code > 0 || raw[i] === '}') continue;
    }
    if (prev === '{') depth++;
    if (prev === '}') depth = Math.max(0, depth - 1);
    // an escape ends the run before it: never break right after a backslash
    let slashes = 0;
    for (let j = i - 1; j >= 0 && raw[j] === '\\'; j--) slashes++;
    if (slashes % 2 === 1) continue;
    if (depth > 0 && prev !== ' ') continue;
    if (prev === ' ' && raw[i] !== ' ') out.push(i);
    else if (CJK_BREAK_AFTER.test(prev)) out.push(i);
    else if (CJK.test(prev) && CJK.test(raw[i])) out.push(i);
  }
  return out;
}

/** The raw text cut into pieces, the first at most `first` characters and the others at most `rest`. */
function pieces(raw, first, rest, template) {
  const points = breakPoints(raw, template);
  const out = [];
  let start = 0;
  let limit = first;
  while (raw.length - start > limit) {
    const fits = points.filter((p) => p > start && p - start <= limit);
    const at = fits.length > 0 ? fits.at(-1) : points.find((p) => p > start);
    if (at === undefined) break;
    out.push(raw.slice(start, at));
    start = at;
    limit = rest;
  }
  out.push(raw.slice(start));
  return out;
}

/** A string literal that may become a concatenation: not a property name, a type, an import or an enum key. */
function splittable(node) {
  if (!ts.isStringLiteral(node) && !ts.isNoSubstitutionTemplateLiteral(node) && !ts.isTemplateExpression(node))
    return false;
  const p = node.parent;
  if (!p) return false;
  if ((ts.isPropertyAssignment(p) || ts.isPropertySignature(p) || ts.isPropertyDeclaration(p)) && p.name === node)
    return false;
  if (ts.isLiteralTypeNode(p) || ts.isImportDeclaration(p) || ts.isExportDeclaration(p)) return false;
  if (ts.isExternalModuleReference(p) || ts.isImportTypeNode(p) || ts.isEnumMember(p)) return false;
  if (ts.isElementAccessExpression(p) && p.argumentExpression === node) return false;
  if (ts.isTaggedTemplateExpression(p) || ts.isAsExpression(p) || ts.isExpressionStatement(p)) return false;
  if (ts.isCallExpression(p) && p.expression.kind === ts.SyntaxKind.ImportKeyword) return false;
  return true;
}

/** Splits the string literals of the lines over the width; returns the new text (the same when nothing fits). */
function splitStrings(text, file) {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const lineStarts = sf.getLineStarts();
  const long = new Set();
  lineStarts.forEach((s, i) => {
    const end = i + 1 < lineStarts.length ? lineStarts[i + 1] - 1 : text.length;
    if (end - s > WIDTH) long.add(i);
  });
  if (long.size === 0) return text;
  const edits = [];
  const visit = (node) => {
    if (splittable(node)) {
      const start = node.getStart(sf);
      const { line, character } = sf.getLineAndCharacterOfPosition(start);
      const endLine = sf.getLineAndCharacterOfPosition(node.end).line;
      if (line === endLine && long.has(line)) {
        const src = text.slice(start, node.end);
        const q = src[0];
        const raw = src.slice(1, -1);
        const indent = /^\s*/.exec(text.slice(lineStarts[line]))[0].length + 2;
        // the first piece stays where the literal starts; the rest go one per line (biome indents them)
        const parts = pieces(raw, Math.max(20, WIDTH - character - 4), WIDTH - indent - 4, q === '`');
        if (parts.length > 1) {
          edits.push({ start, end: node.end, text: `(${parts.map((p) => `${q}${p}${q}`).join(' +\n')})` });
          return;
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  let out = text;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** Greedy fill of words into lines of at most `width` characters. */
function fill(words, width) {
  const lines = [];
  let cur = '';
  for (const w of words) {
    if (cur && cur.length + 1 + w.length > width) {
      lines.push(cur);
      cur = w;
    } else cur = cur ? `${cur} ${w}` : w;
  }
  if (cur) lines.push(cur);
  return lines;
}

/**
 * Rewraps the comment paragraphs that hold a line over the width: consecutive `//` lines (or ` * ` lines of a JSDoc
 * block) with the same indentation, a paragraph ending at an empty comment line, a list item or a deeper indent.
 * A one-line JSDoc over the width becomes a block.
 */
function wrapComments(text, file) {
  const lines = text.split('\n');
  const quoted = linesInsideStrings(text, file);
  const out = [];
  const prefixOf = (l) => /^(\s*)(\/\/|\*)( +)(?=\S)/.exec(l);
  let inBlock = false;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (quoted.has(i)) {
      out.push(l);
      continue;
    }
    const opens = /^\s*\/\*/.test(l) && !/\*\//.test(l);
    if (opens) inBlock = true;
    if (inBlock && /\*\//.test(l)) inBlock = false;
    if (/^\s*\*/.test(l) && !inBlock) {
      out.push(l);
      continue;
    }
    const one = /^(\s*)\/\*\* (.*\S) \*\/$/.exec(l);
    if (one && l.length > WIDTH) {
      out.push(`${one[1]}/**`);
      for (const w of fill(one[2].split(' '), WIDTH - one[1].length - 3)) out.push(`${one[1]} * ${w}`);
      out.push(`${one[1]} */`);
      continue;
    }
    const m = prefixOf(l);
    if (m?.[3].length !== 1 || (m[2] === '*' && !/^\s*\* /.test(l))) {
      out.push(l);
      continue;
    }
    // the paragraph this line starts: same prefix, one space after it, no list item after the first line
    const lead = `${m[1]}${m[2]} `;
    let j = i;
    while (
      j + 1 < lines.length &&
      !quoted.has(j + 1) &&
      lines[j + 1].startsWith(lead) &&
      !/^\s/.test(lines[j + 1].slice(lead.length)) &&
      !/^([-*•]|\d+\.|@)\s/.test(lines[j + 1].slice(lead.length)) &&
      lines[j + 1].length > lead.length
    )
      j++;
    const para = lines.slice(i, j + 1);
    if (para.some((x) => x.length > WIDTH)) {
      const words = para.flatMap((x) => x.slice(lead.length).split(' ').filter(Boolean));
      const first = /^([-*•]|\d+\.)\s/.exec(para[0].slice(lead.length));
      const hang = first ? ' '.repeat(first[0].length) : '';
      fill(words, WIDTH - lead.length - hang.length).forEach((w, k) => {
        out.push(`${lead}${k > 0 ? hang : ''}${w}`);
      });
    } else out.push(...para);
    i = j;
  }
  return out.join('\n');
}

/** Lines (0-based) inside a string or template that spans lines: text there is data, not a comment. */
function linesInsideStrings(text, file) {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out = new Set();
  const visit = (node) => {
    if (ts.isTemplateExpression(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isStringLiteral(node)) {
      const a = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const b = sf.getLineAndCharacterOfPosition(node.end).line;
      for (let k = a + 1; k <= b; k++) out.add(k);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** The text of `file` with its long strings split and long comments rewrapped (before formatting). */
export function wrapText(text, file = 'file.ts') {
  return wrapComments(splitStrings(text, file), file);
}

export function longLines(text) {
  return text.split('\n').flatMap((l, i) => (l.length > WIDTH ? [i + 1] : []));
}

function tsFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return tsFiles(p);
    return e.name.endsWith('.ts') ? [p] : [];
  });
}

function main(argv) {
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  let root = repo;
  let check = false;
  const named = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--root') root = path.resolve(argv[++i] ?? '.');
    else if (argv[i] === '--check') check = true;
    else if (argv[i].startsWith('-')) {
      console.error(`wrap-long-lines: unknown option ${argv[i]} (use --root DIR, --check, FILE...)`);
      process.exit(2);
    } else named.push(argv[i]);
  }
  const files = named.length > 0 ? named.map((f) => path.resolve(root, f)) : tsFiles(path.join(root, 'src'));
  const biome = path.join(repo, 'node_modules', '.bin', 'biome');
  const changed = new Set();
  // until nothing changes: formatting can move a literal to where its line is long again
  for (let pass = 0; pass < 5; pass++) {
    const now = [];
    for (const f of files) {
      const before = fs.readFileSync(f, 'utf8');
      if (longLines(before).length === 0) continue;
      const after = wrapText(before, f);
      if (after === before) continue;
      now.push(f);
      if (!check) fs.writeFileSync(f, after);
    }
    for (const f of now) changed.add(f);
    if (check || now.length === 0) break;
    const r = spawnSync(biome, ['format', '--write', ...now], { cwd: root, encoding: 'utf8' });
    if (r.status !== 0) {
      console.error(`wrap-long-lines: biome format failed:\n${r.stderr || r.stdout}`);
      process.exit(1);
    }
  }
  if (check) {
    for (const f of changed) console.log(`would change ${path.relative(root, f)}`);
    process.exit(changed.size > 0 ? 1 : 0);
  }
  const left = files.flatMap((f) => longLines(fs.readFileSync(f, 'utf8')).map((n) => `${path.relative(root, f)}:${n}`));
  console.log(`${changed.size} files changed; ${left.length} lines over ${WIDTH} left (not strings or comments)`);
  for (const l of left) console.log(`  ${l}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
