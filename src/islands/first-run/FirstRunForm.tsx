import { useState, type FormEvent } from 'react';
import { call } from '../../lib/api/client.ts';
import { fetchSelfUser } from '../../lib/stores/self-user.ts';
import { localizePath, type Locale } from '../../lib/i18n/locales.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useAction } from '../settings/use-action.ts';
import { Field } from '../field.tsx';

/**
 * The first-run form: the token from the server's log and the first administrator's account.
 * Once made, the administrator is logged in and told where moderation and invitations live.
 */
export default function FirstRunForm({ locale, messages }: { locale: Locale; messages: Messages }) {
  const t = useIslandTranslation(locale, messages);
  const { busy, error, run } = useAction(t('api.internal'));
  const [form, setForm] = useState({ token: '', email: '', username: '', userNickname: '', password: '' });
  const [done, setDone] = useState(false);
  const set = (key: keyof typeof form) => (event: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: event.target.value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await call('POST firstRun', {
        ...form,
        userNickname: form.userNickname || undefined,
        clientLanguage: locale === 'ii' ? undefined : locale,
      });
      await fetchSelfUser();
      setDone(true);
    });
  };

  if (done) {
    return (
      <div className="first-run-done" role="status" data-first-run-done>
        <p>{t('firstRun.done')}</p>
        <a className="button" href={localizePath('/settings/content', locale)}>
          {t('firstRun.toReview')}
        </a>
      </div>
    );
  }
  return (
    <form className="auth-form first-run-form" onSubmit={submit} data-first-run-form>
      <Field label={t('firstRun.token')} hint={t('firstRun.tokenHint')}>
        <input name="token" required autoComplete="off" spellCheck={false} value={form.token} onChange={set('token')} />
      </Field>
      <Field label={t('auth.email')}>
        <input type="email" name="email" autoComplete="email" required value={form.email} onChange={set('email')} />
      </Field>
      <Field label={t('auth.username')} hint={t('auth.usernameHint')}>
        <input
          name="username"
          autoComplete="username"
          required
          maxLength={40}
          value={form.username}
          onChange={set('username')}
        />
      </Field>
      <Field label={t('auth.nickname')}>
        <input
          name="userNickname"
          autoComplete="nickname"
          maxLength={40}
          value={form.userNickname}
          onChange={set('userNickname')}
        />
      </Field>
      <Field label={t('auth.password')} hint={t('auth.passwordHint')}>
        <input
          type="password"
          name="password"
          autoComplete="new-password"
          required
          minLength={8}
          value={form.password}
          onChange={set('password')}
        />
      </Field>
      {error && (
        <p className="auth-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="button auth-submit" disabled={busy}>
        {busy ? t('auth.working') : t('firstRun.submit')}
      </button>
    </form>
  );
}
