/** Roles (API-NOTES): blocked excludes all others. The server checks every permission here. */
export const ROLES = ['root', 'administrator', 'developer', 'user', 'blocked'] as const;
export type Role = (typeof ROLES)[number];

export const isStaff = (roles: readonly string[]) => roles.includes('root') || roles.includes('administrator');
export const isBlocked = (roles: readonly string[]) => roles.includes('blocked');

/** Normalises a requested role set: known roles, no duplicates, and 'blocked' alone. */
export function normalizeRoles(roles: readonly string[]): Role[] {
  const known = ROLES.filter((role) => roles.includes(role));
  if (known.includes('blocked')) return ['blocked'];
  return known.length ? known : ['user'];
}

/**
 * Who may set which roles: root may set any; an administrator may change only users who are
 * not root or administrator, and may not grant those two roles.
 */
export function canChangeRoles(actor: readonly string[], targetCurrent: readonly string[], targetNext: readonly string[]): boolean {
  if (actor.includes('root')) return true;
  if (!actor.includes('administrator')) return false;
  const privileged = (roles: readonly string[]) => roles.includes('root') || roles.includes('administrator');
  return !privileged(targetCurrent) && !privileged(targetNext);
}
