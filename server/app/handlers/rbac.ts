import type { HandlerSet } from '../mount-routes.ts';

/** SPEC §7 "role management": the service asks the policy's roleChange rule once the target is loaded (and locked). */
export const rbacHandlers: HandlerSet<'rbac/'> = {
  'POST rbac/adminUpdateUserRole': async ({ uid, newRoles }, { services, actor }) => ({
    success: true,
    uid,
    roles: await services.accounts.updateUserRoles(actor, uid, newRoles),
  }),
};
