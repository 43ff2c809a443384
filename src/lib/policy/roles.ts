/**
 * The roles and the one staff test, apart from the policy table (policy.ts re-exports them) so
 * that the shell, on every page, can tell staff without loading the whole table with its notes.
 */
export const ROLES = ['root', 'administrator', 'developer', 'user', 'blocked'] as const;
export type Role = (typeof ROLES)[number];

/** Whoever is asking: a logged-in account (any roles), or null for a guest. */
export interface Actor { uid: number; roles: readonly string[] }

export const isStaff = (actor: Actor | null) => !!actor && (actor.roles.includes('root') || actor.roles.includes('administrator'));
