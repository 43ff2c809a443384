import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  login,
  register,
  requestRegistrationCode,
  checkUsername,
  checkEmailExists,
  checkInvitationCode,
  sendLoginCode,
  requestForgotPasswordCode,
  resetPassword,
  HttpError,
} from '../../lib/api/index.ts';
import { fetchSelfUser } from '../../lib/stores/self-user.ts';
import { showToast } from '../../lib/stores/toast.ts';
import { checkName, checkPassword, isValidEmail } from '../../lib/validation/account.ts';
import type { TFunction } from 'i18next';
import type { LoginErrorBody } from '../../lib/api/contracts/user.ts';
import { useAction, FormError } from '../settings/use-action.ts';
import { useLiveCheck } from './use-live-check.ts';
import { Field } from '../field.tsx';

export type AuthMode = 'login' | 'register' | 'forgot';
const RESEND_SECONDS = 55;
const NO_COMMON = new Set<string>(); // the server holds the common-password list
/** Codes look like KIRA-XXXX-XXXX: shorter input is still being typed, not worth a lookup. */
const INVITATION_CODE_MIN_LENGTH = 8;

/** Login and registration (with the mailed code and the invitation code) in one modal dialog. */
export default function AuthDialog({
  t,
  initialMode,
  locale,
  onClose,
}: {
  t: TFunction;
  initialMode: AuthMode;
  locale: string;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [mode, setMode] = useState<AuthMode>(initialMode);
  const { busy, error, run, setError } = useAction(t('api.internal'));
  const [notice, setNotice] = useState('');
  const [cooldown, setCooldown] = useState(0);
  const [secondFactor, setSecondFactor] = useState<'totp' | 'email' | null>(null);
  const [clientOtp, setClientOtp] = useState('');
  const [form, setForm] = useState({
    email: '',
    password: '',
    username: '',
    userNickname: '',
    invitationCode: '',
    verificationCode: '',
  });
  const set = (key: keyof typeof form) => (event: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: event.target.value }));

  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  useEffect(() => {
    if (cooldown <= 0) return;
    const timer = setTimeout(() => setCooldown((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [cooldown]);

  const sendCode = () =>
    run(async () => {
      if (!isValidEmail(form.email)) throw new FormError(t('api.validation'));
      await (mode === 'forgot'
        ? requestForgotPasswordCode(form.email, locale)
        : requestRegistrationCode(form.email, locale));
      setCooldown(RESEND_SECONDS);
      // A reset code is only mailed to an address with an account, and the answer does not say which.
      setNotice(t(mode === 'forgot' ? 'auth.resetCodeSent' : 'auth.codeSent', { email: form.email.trim() }));
    });

  const sendEmailLoginCode = () =>
    run(async () => {
      await sendLoginCode(form.email, form.password, locale);
      setCooldown(RESEND_SECONDS);
      setNotice(t('security.emailCodeSent'));
    });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      if (mode === 'forgot') {
        await resetPassword(form.email, form.password, form.verificationCode.trim());
        showToast({ message: t('credentials.resetDone'), severity: 'success', duration: 4000 });
        setForm((f) => ({ ...f, password: '', verificationCode: '' }));
        setNotice('');
        setMode('login');
        return;
      }
      if (mode === 'login') {
        try {
          const code = secondFactor ? clientOtp.trim() : undefined;
          await login({
            email: form.email,
            password: form.password,
            ...(secondFactor === 'email' ? { verificationCode: code } : { clientOtp: code }),
          });
        } catch (e) {
          // The password was right: ask for the second factor the account has.
          const body = e instanceof HttpError ? (e.body as Partial<LoginErrorBody> | undefined) : undefined;
          if (body?.code === 'SECOND_FACTOR_REQUIRED') {
            setSecondFactor(body.authenticatorType ?? 'totp');
            return;
          }
          throw e;
        }
        await fetchSelfUser();
        showToast({ message: t('auth.loggedIn'), severity: 'success' });
      } else {
        await register({
          ...form,
          userNickname: form.userNickname.trim() || undefined,
          clientLanguage: locale as never,
        });
        await fetchSelfUser();
        showToast({ message: t('auth.registered'), severity: 'success', duration: 4000 });
      }
      dialog.current?.close();
    });
  };

  const isRegister = mode === 'register';
  // Registration fields say what is wrong while they are typed, not only on submit.
  const username = isRegister ? form.username.trim() : '';
  const usernameTaken = useLiveCheck(
    username,
    (name) => !checkName(name),
    async (name) => ((await checkUsername(name)).isAvailableUsername ? '' : t('auth.usernameTaken')),
  );
  const usernameNote = username && checkName(username) ? t('auth.usernameHint') : usernameTaken;
  const emailNote = useLiveCheck(isRegister ? form.email.trim() : '', isValidEmail, async (email) =>
    (await checkEmailExists(email)).exists ? t('auth.emailTaken') : '',
  );
  const invitationNote = useLiveCheck(
    isRegister ? form.invitationCode.trim() : '',
    (code) => code.length >= INVITATION_CODE_MIN_LENGTH,
    async (code) => ((await checkInvitationCode(code)).isAvailableInvitationCode ? '' : t('api.invitationCodeInvalid')),
  );

  const passwordProblem = mode !== 'login' && form.password && checkPassword(form.password, NO_COMMON);
  const isForgot = mode === 'forgot';
  const needsCode = isRegister || isForgot;
  return (
    <dialog ref={dialog} className="auth-dialog" aria-labelledby="auth-title" onClose={onClose}>
      <form method="dialog" className="auth-close-form">
        <button className="icon-button" aria-label={t('auth.close')}>
          ×
        </button>
      </form>
      <h2 id="auth-title">
        {isForgot ? t('credentials.resetTitle') : isRegister ? t('auth.registerTitle') : t('auth.loginTitle')}
      </h2>
      <form className="auth-form" onSubmit={submit} noValidate={false}>
        <Field label={t('auth.email')} hint={isRegister ? emailNote : undefined}>
          <input
            type="email"
            name="email"
            autoComplete="email"
            required
            value={form.email}
            onChange={set('email')}
            aria-invalid={isRegister && emailNote ? true : undefined}
          />
        </Field>
        {needsCode && (
          <div className="code-row">
            <Field label={t('auth.verificationCode')}>
              <input
                name="verificationCode"
                inputMode="numeric"
                pattern="\d{6}"
                maxLength={6}
                autoComplete="one-time-code"
                required
                value={form.verificationCode}
                onChange={set('verificationCode')}
              />
            </Field>
            <button type="button" className="button secondary" disabled={busy || cooldown > 0} onClick={sendCode}>
              {cooldown > 0 ? t('auth.resendIn', { seconds: cooldown }) : t('auth.sendCode')}
            </button>
          </div>
        )}
        {notice && needsCode && (
          <p className="auth-notice" role="status">
            {notice}
          </p>
        )}
        {isRegister && (
          <>
            <Field label={t('auth.username')} hint={usernameNote || t('auth.usernameHint')}>
              <input
                name="username"
                autoComplete="username"
                required
                maxLength={40}
                value={form.username}
                onChange={set('username')}
                aria-invalid={usernameNote ? true : undefined}
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
          </>
        )}
        <Field
          label={isForgot ? t('credentials.newPassword') : t('auth.password')}
          hint={needsCode ? t('auth.passwordHint') : undefined}
        >
          <input
            type="password"
            name="password"
            autoComplete={needsCode ? 'new-password' : 'current-password'}
            required
            minLength={needsCode ? 8 : undefined}
            value={form.password}
            onChange={set('password')}
            aria-invalid={passwordProblem ? true : undefined}
          />
        </Field>
        {isRegister && (
          <Field label={t('auth.invitationCode')} hint={invitationNote || t('auth.invitationHint')}>
            <input
              name="invitationCode"
              required
              placeholder="KIRA-XXXX-XXXX"
              autoCapitalize="characters"
              value={form.invitationCode}
              onChange={set('invitationCode')}
              aria-invalid={invitationNote ? true : undefined}
            />
          </Field>
        )}
        {secondFactor && !isRegister && (
          <div className="code-row">
            <Field
              label={t('security.secondFactorTitle')}
              hint={t(secondFactor === 'email' ? 'security.loginCodeHint' : 'security.secondFactorHint')}
            >
              <input
                name="clientOtp"
                autoComplete="one-time-code"
                autoFocus
                required
                maxLength={32}
                value={clientOtp}
                onChange={(e) => setClientOtp(e.target.value)}
              />
            </Field>
            {secondFactor === 'email' && (
              <button
                type="button"
                className="button secondary"
                disabled={busy || cooldown > 0}
                onClick={sendEmailLoginCode}
              >
                {cooldown > 0 ? t('auth.resendIn', { seconds: cooldown }) : t('security.sendLoginCode')}
              </button>
            )}
          </div>
        )}
        {secondFactor === 'email' && notice && (
          <p className="auth-notice" role="status">
            {notice}
          </p>
        )}
        {error && (
          <p className="auth-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="button auth-submit" disabled={busy}>
          {busy
            ? t('auth.working')
            : isForgot
              ? t('credentials.resetSubmit')
              : isRegister
                ? t('auth.register')
                : t('auth.login')}
        </button>
        {mode === 'login' && (
          <button
            type="button"
            className="link-button auth-forgot"
            onClick={() => {
              setMode('forgot');
              setError('');
              setNotice('');
            }}
          >
            {t('credentials.forgot')}
          </button>
        )}
      </form>
      <p className="auth-switch">
        {needsCode ? t('auth.haveAccount') : t('auth.noAccount')}{' '}
        <button
          type="button"
          className="link-button"
          onClick={() => {
            setMode(needsCode ? 'login' : 'register');
            setError('');
            setNotice('');
          }}
        >
          {needsCode ? t('auth.login') : t('auth.register')}
        </button>
      </p>
    </dialog>
  );
}
