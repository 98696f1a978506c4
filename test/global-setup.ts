// Builds dist/cli.js once, so CLI tests run the real bundle (as users do).
import { execFileSync } from 'node:child_process';

export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
}
