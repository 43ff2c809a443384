import { Hono } from 'hono';
import type { AppEnv } from '../create-app.ts';
import { updateRolesBody } from '../../../src/lib/api/contract.ts';
import { validate } from '../validate.ts';
import { requireStaff } from '../auth.ts';
import { updateUserRoles } from '../../services/accounts.ts';

/** SPEC §7 "role management": root and administrators only, with the rules of server/auth/roles.ts. */
export function rbacRoutes() {
  return new Hono<AppEnv>().post('/adminUpdateUserRole', async (c) => {
    const actor = await requireStaff(c);
    const { uid, newRoles } = validate(updateRolesBody, await c.req.json().catch(() => ({})));
    const roles = await updateUserRoles(c.get('deps').db, actor, uid, newRoles);
    return c.json({ success: true, uid, roles });
  });
}
