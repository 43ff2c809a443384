/// <reference types="astro/client" />
declare const __BUILD_ID__: string;
declare const __BUILD_COMMIT__: string;
declare const __BUILD_TIME__: string;
declare const __APP_VERSION__: string;

declare namespace App {
  interface Locals {
    /** Server-side services handed in by server/site when rendering on demand. */
    site?: import('../server/site/locals.ts').SiteLocals;
    /** The visitor's path, kept for error pages that Astro renders under their own route. */
    requestPath?: string;
    /** The request came from a crawler (src/lib/navigation/bots.ts): error pages are withheld. */
    crawler?: boolean;
    /** For the 500 page: the seconds to wait when the error is the database being away (then a 503), else null. */
    outage?: (error: unknown) => number | null;
  }
}

// hls.js ships its light build without its own type declarations; it is the same API.
declare module 'hls.js/light' {
  export * from 'hls.js';
  export { default } from 'hls.js';
}
