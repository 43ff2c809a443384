import { Hono } from 'hono';
import type { AppEnv } from '../create-app.ts';
import { userExistsQuery, type UserExistsResponse } from '../../../src/lib/api/contract.ts';
import { validate } from '../validate.ts';

/** SPEC §7 "User" family. Accounts, sessions and profiles join here. */
export function userRoutes() {
  return new Hono<AppEnv>().get('/exists', async (c) => {
    const { uid } = validate(userExistsQuery, c.req.query());
    const body: UserExistsResponse = { success: true, exists: await c.get('catalogue').userExists(uid) };
    return c.json(body);
  });
}
