import { useState, type FormEvent } from 'react';
import { requestChangePasswordCode, changePassword, requestChangeEmailCode, changeEmail } from '../../lib/api/index.ts';
import { fetchSelfUser } from '../../lib/stores/self-user.ts';
import { showToast } from '../../lib/stores/toast.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useSelfUser } from '../use-self-user.ts';
import { useAction } from './use-action.ts';
import Input from './Input.tsx';
import type { Messages } from '../../lib/i18n/translate.ts';
import type { Locale } from '../../lib/i18n/locales.ts';

/** Settings > Security: change the password and the e-mail address, each proven by a mailed code. */
export default function CredentialsSettings({ locale, messages }: { locale: Locale; messages: Messages }) {
  const t = useIslandTranslation(locale, messages);
  const self = useSelfUser();
  const pw = useAction(t('api.internal'));
  const em = useAction(t('api.internal'));
  const [passwords, setPasswords] = useState({ oldPassword: '', newPassword: '', code: '' });
  const [emails, setEmails] = useState({ newEmail: '', password: '', code: '' });
  const email = self.userInfo?.email;
  if (!self.isLogined || !email) return null;

  const submitPassword = (e: FormEvent) => {
    e.preventDefault();
    void pw.run(async () => {
      await changePassword(passwords.oldPassword, passwords.newPassword, passwords.code.trim());
      setPasswords({ oldPassword: '', newPassword: '', code: '' });
      showToast({ message: t('credentials.passwordChanged'), severity: 'success', duration: 4000 });
    });
  };
  const submitEmail = (e: FormEvent) => {
    e.preventDefault();
    void em.run(async () => {
      await changeEmail(email, emails.newEmail.trim(), emails.password, emails.code.trim());
      setEmails({ newEmail: '', password: '', code: '' });
      await fetchSelfUser();
      showToast({ message: t('credentials.emailChanged'), severity: 'success' });
    });
  };

  return (
    <>
      <form className="card security-card auth-form" onSubmit={submitPassword} data-change-password>
        <h2>{t('credentials.changePassword')}</h2>
        <Input
          label={t('credentials.currentPassword')}
          type="password"
          name="oldPassword"
          autoComplete="current-password"
          value={passwords.oldPassword}
          onChange={(e) => setPasswords({ ...passwords, oldPassword: e.target.value })}
        />
        <Input
          label={t('credentials.newPassword')}
          type="password"
          name="newPassword"
          autoComplete="new-password"
          minLength={8}
          value={passwords.newPassword}
          onChange={(e) => setPasswords({ ...passwords, newPassword: e.target.value })}
        />
        <div className="code-row">
          <Input
            label={t('auth.verificationCode')}
            name="code"
            inputMode="numeric"
            maxLength={6}
            autoComplete="one-time-code"
            value={passwords.code}
            onChange={(e) => setPasswords({ ...passwords, code: e.target.value })}
          />
          <button
            type="button"
            className="button secondary"
            disabled={pw.busy}
            onClick={() =>
              void pw.run(async () => {
                await requestChangePasswordCode(locale);
                showToast({ message: t('security.emailCodeSent'), severity: 'info' });
              })
            }
          >
            {t('credentials.sendCodeToMe')}
          </button>
        </div>
        {pw.error && (
          <p className="auth-error" role="alert">
            {pw.error}
          </p>
        )}
        <button type="submit" className="button" disabled={pw.busy}>
          {t('credentials.changePassword')}
        </button>
      </form>
      <form className="card security-card auth-form" onSubmit={submitEmail} data-change-email>
        <h2>{t('credentials.changeEmail')}</h2>
        <p className="field-hint">{t('credentials.currentEmail', { email })}</p>
        <Input
          label={t('credentials.newEmail')}
          type="email"
          name="newEmail"
          autoComplete="email"
          value={emails.newEmail}
          onChange={(e) => setEmails({ ...emails, newEmail: e.target.value })}
        />
        <Input
          label={t('credentials.currentPassword')}
          type="password"
          name="password"
          autoComplete="current-password"
          value={emails.password}
          onChange={(e) => setEmails({ ...emails, password: e.target.value })}
        />
        <div className="code-row">
          <Input
            label={t('auth.verificationCode')}
            name="code"
            inputMode="numeric"
            maxLength={6}
            autoComplete="one-time-code"
            value={emails.code}
            onChange={(e) => setEmails({ ...emails, code: e.target.value })}
          />
          <button
            type="button"
            className="button secondary"
            disabled={em.busy}
            onClick={() =>
              void em.run(async () => {
                await requestChangeEmailCode(emails.newEmail.trim(), locale);
                showToast({ message: t('security.emailCodeSent'), severity: 'info' });
              })
            }
          >
            {t('credentials.sendCodeToNew')}
          </button>
        </div>
        {em.error && (
          <p className="auth-error" role="alert">
            {em.error}
          </p>
        )}
        <button type="submit" className="button" disabled={em.busy}>
          {t('credentials.changeEmail')}
        </button>
      </form>
    </>
  );
}
