import type { HandlerSet } from '../mount-routes.ts';

/** SPEC §7 "role management": the policy's roleChange rule decides once the target is loaded (and locked). */
export const rbacHandlers: HandlerSet<'rbac/'> = {
  'POST rbac/adminUpdateUserRole': async ({ uid, newRoles }, { services, authorize, actor }) => {
    const roles = await services.accounts.updateUserRoles(uid, newRoles, (currentRoles, nextRoles) => authorize('user.roles', { currentRoles, nextRoles }), actor.uid);
    return { success: true, uid, roles };
  },
};
