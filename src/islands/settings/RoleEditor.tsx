import { useRef, useState, type FormEvent } from 'react';
import type { TFunction } from 'i18next';
import { updateUserRoles } from '../../lib/api/index.ts';
import { can, normalizeRoles, type Actor, type Role } from '../../lib/policy/policy.ts';
import { showToast } from '../../lib/stores/toast.ts';
import { useAction } from './use-action.ts';
import FormFields from './FormFields.tsx';
import './roles.css';

/** The roles an administrator's page grants and revokes (root is kept as it is; bans have their own page). */
const EDITABLE: readonly Role[] = ['administrator', 'developer', 'user'];

/**
 * A user's current roles, and (when the policy lets the acting administrator change any of
 * them) a dialog to grant and revoke them. Only changes the policy allows can be ticked; the
 * server checks the same rule.
 */
export default function RoleEditor({
  t,
  actor,
  uid,
  name,
  roles,
  onChanged,
}: {
  t: TFunction;
  actor: Actor | null;
  uid: number;
  name: string;
  roles: readonly string[];
  onChanged: (roles: string[]) => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [chosen, setChosen] = useState<string[]>([...roles]);
  const { busy, ready, error, run, setError } = useAction(t('api.internal'));
  const banned = roles.includes('blocked');
  const next = (role: Role, on: boolean) => normalizeRoles(on ? [...chosen, role] : chosen.filter((r) => r !== role));
  const allowed = (role: Role) => {
    const nextRoles = next(role, !chosen.includes(role));
    return can(actor, 'user.roles', { currentRoles: roles, nextRoles });
  };
  const changeable =
    !banned &&
    EDITABLE.some((role) =>
      can(actor, 'user.roles', { currentRoles: roles, nextRoles: next(role, !roles.includes(role)) }),
    );

  const open = () => {
    setChosen([...roles]);
    setError('');
    dialog.current?.showModal();
  };
  const save = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const result = await updateUserRoles(uid, normalizeRoles(chosen));
      dialog.current?.close();
      showToast({ message: t('roles.saved', { name }), severity: 'success' });
      onChanged(result.roles);
    });
  };

  return (
    <div className="role-editor" data-roles={roles.join(' ')}>
      <span className="field-label">{t('roles.current')}</span>
      <ul className="role-list">
        {roles.map((role) => (
          <li key={role} className={`role-chip role-${role}`}>
            {t(`roles.names.${role}`)}
          </li>
        ))}
      </ul>
      {changeable ? (
        <button type="button" className="button secondary" onClick={open} aria-haspopup="dialog" data-change-roles>
          {t('roles.change')}
        </button>
      ) : (
        <span className="field-hint">{t(banned ? 'roles.bannedHint' : 'roles.notAllowed')}</span>
      )}
      <dialog ref={dialog} className="auth-dialog" aria-labelledby={`roles-title-${uid}`} data-roles-dialog>
        <form className="auth-form" onSubmit={save}>
          <FormFields ready={ready}>
            <h2 id={`roles-title-${uid}`}>{t('roles.dialogTitle', { name })}</h2>
            <fieldset className="role-choices">
              <legend className="field-label">{t('roles.choose')}</legend>
              {EDITABLE.map((role) => (
                <label key={role} className="role-choice">
                  <input
                    type="checkbox"
                    name="role"
                    value={role}
                    checked={chosen.includes(role)}
                    disabled={!allowed(role)}
                    onChange={(e) => setChosen(next(role, e.target.checked))}
                    aria-describedby={`role-${uid}-${role}`}
                  />
                  <span>{t(`roles.names.${role}`)}</span>
                  <span className="field-hint" id={`role-${uid}-${role}`}>
                    {t(`roles.describe.${role}`)}
                  </span>
                </label>
              ))}
              {roles.includes('root') && <p className="field-hint">{t('roles.rootKept')}</p>}
            </fieldset>
            {!can(actor, 'user.roles', { currentRoles: roles, nextRoles: ['administrator'] }) && (
              <p className="field-hint">{t('roles.rootOnly')}</p>
            )}
            {error && (
              <p className="auth-error" role="alert">
                {error}
              </p>
            )}
            <div className="review-actions">
              <button type="submit" className="button" disabled={busy} data-save-roles>
                {t('roles.save')}
              </button>
              <button type="button" className="button secondary" onClick={() => dialog.current?.close()}>
                {t('roles.cancel')}
              </button>
            </div>
          </FormFields>
        </form>
      </dialog>
    </div>
  );
}
