// explain's own start: start and the explain command, with its terminal view, in the static closure of one entry.
// The build bundles this entry as a tree of its own beside the chunks (scripts/build.mjs, dist/explain-tree/), so
// that a short explain loads one file where the shared chunks make it load thirty (Node's ES loader costs each
// file a resolve, a read, a compile-cache lookup and a link). The tree holds the whole program, every other command
// included: a process loads one tree or the other, never both, so each module has one instance.
import * as explain from '../commands/explain.js';
import * as terminalView from '../report/views/explain/terminal.js';
import { preload } from './registry.js';

export { start } from './start.js';

preload('explain', explain);
explain.preloadTerminalView(terminalView);
