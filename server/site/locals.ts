/** What the on-demand pages may ask the server while rendering (handed in as Astro locals). */
export interface SiteViewer { uid: number; roles: string[] }

export interface SiteLocals {
  /** Development shows stacks on the generic 500 page; production never does. */
  isDevelopment: boolean;
  /** The logged-in user behind a request's session cookies, or null. */
  viewer(request: Request): Promise<SiteViewer | null>;
  videoExists(videoId: number): Promise<boolean>;
  publicUser(uid: number): Promise<import('../../src/lib/api/contract.ts').PublicProfile | null>;
}
