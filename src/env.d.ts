/// <reference types="astro/client" />
declare const __BUILD_ID__: string;

declare namespace App {
  interface Locals {
    /** Server-side services handed in by server/site when rendering on demand. */
    site?: import('../server/site/locals.ts').SiteLocals;
    /** The visitor's path, kept for error pages that Astro renders under their own route. */
    requestPath?: string;
  }
}
