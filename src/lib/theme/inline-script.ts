/**
 * The first-paint theme script inlined into every page's <head>: theme-core.js's functions
 * (exports stripped, so the page and the modules share one implementation) followed by
 * theme-init.js, in one function scope.
 */
import themeCore from './theme-core.js?raw';
import themeInit from './theme-init.js?raw';

const stripComments = (source: string) =>
  source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '').replace(/\n\s*\n/g, '\n');

export const THEME_INLINE_SCRIPT = `(function(){${stripComments(themeCore.replace(/^export /gm, ''))}\n${stripComments(themeInit)}})();`;
