// The y/N question before fix changes anything. Only a "y" or "yes" answer is a yes; end of input is a no.
import { createInterface } from 'node:readline';
import type { Output } from '../../ports/context.js';

export function isInteractive(stdin: NodeJS.ReadableStream): boolean {
  return (stdin as { isTTY?: boolean }).isTTY === true;
}

export async function askYesNo(input: NodeJS.ReadableStream, out: Output, question: string): Promise<boolean> {
  out.write(`${question} [y/N] `);
  const rl = createInterface({ input, terminal: false });
  try {
    const answer = await new Promise<string | null>((resolve) => {
      rl.once('line', (l) => resolve(l));
      rl.once('close', () => resolve(null));
    });
    if (answer === null) out.write('\n');
    return answer !== null && /^\s*y(es)?\s*$/i.test(answer);
  } finally {
    rl.close();
  }
}
