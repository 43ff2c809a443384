/**
 * The first-paint script inlined into every page's <head>: the stale-chunk watch
 * (shell/chunk-recovery.js), then theme-core.js's functions followed by theme-init.js in one
 * function scope (exports stripped, so the page and the modules share one implementation).
 */
import themeCore from './theme-core.js?raw';
import themeInit from './theme-init.js?raw';
import chunkRecovery from '../shell/chunk-recovery.js?raw';

const stripComments = (source: string) =>
  source
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '')
    .replace(/\n\s*\n/g, '\n');

// The chunk watch comes first, in a scope of its own: islands may start loading before the shell
// boots, and theme-init.js may return early.
export const THEME_INLINE_SCRIPT =
  `(function(){${stripComments(chunkRecovery.replace(/^export /gm, ''))}\nwatchChunkErrors(window);})();` +
  `(function(){${stripComments(themeCore.replace(/^export /gm, ''))}\n${stripComments(themeInit)}})();`;
