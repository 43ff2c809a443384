/**
 * libass's worker: jassub's own worker script, with WebGL in software refused first
 * (ass-worker-gl.ts; modules run in the order imported). Started by jassub under the name it
 * answers to (`jassub-worker`), from the address ass-files.ts gives it.
 */
import './ass-worker-gl.ts';
import 'jassub/dist/worker/worker.js';
