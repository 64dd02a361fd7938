// Counts the unchecked types in src/: `as` assertions (but `as const`) and non-null
// assertions (`x!`), by the TypeScript compiler's own parse, so import renamings
// (`import { a as b }`) and text in strings or comments are not counted.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface AssertionCount {
  as: number;
  nonNull: number;
  /** Per file, the most first. */
  byFile: { file: string; as: number; nonNull: number }[];
}

const isAsConst = (node: ts.AsExpression) => ts.isTypeReferenceNode(node.type) && node.type.typeName.getText() === 'const';

function countFile(file: string): { as: number; nonNull: number } {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const count = { as: 0, nonNull: 0 };
  const visit = (node: ts.Node): void => {
    if (ts.isAsExpression(node) && !isAsConst(node)) count.as++;
    if (ts.isNonNullExpression(node)) count.nonNull++;
    ts.forEachChild(node, visit);
  };
  visit(source);
  return count;
}

export function countAssertions(root: string): AssertionCount {
  const files = fs.readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  const byFile = files.map((f) => ({ file: f, ...countFile(path.join(root, f)) })).filter((c) => c.as + c.nonNull > 0);
  byFile.sort((a, b) => b.as + b.nonNull - (a.as + a.nonNull));
  return { as: byFile.reduce((n, c) => n + c.as, 0), nonNull: byFile.reduce((n, c) => n + c.nonNull, 0), byFile };
}
