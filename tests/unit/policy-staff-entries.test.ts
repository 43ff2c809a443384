import { expect, test } from 'vitest';
import { can } from '../../src/lib/policy/policy.ts';

// The shell shows its staff-only entries (the administration group of settings, in-context
// translation) by this action: root and administrators only, never a banned account's old roles.
test('staff.entries: root and administrators, nobody else', () => {
  const actor = (...roles: string[]) => ({ uid: 7, roles });
  expect(can(actor('root'), 'staff.entries')).toBe(true);
  expect(can(actor('administrator'), 'staff.entries')).toBe(true);
  expect(can(actor('developer', 'user'), 'staff.entries')).toBe(false);
  expect(can(actor('user'), 'staff.entries')).toBe(false);
  expect(can(actor('blocked'), 'staff.entries')).toBe(false);
  expect(can(null, 'staff.entries')).toBe(false);
});
