import { useEffect, useState, type FormEvent } from 'react';
import QRCode from 'qrcode';
import {
  have2FA,
  createTotp,
  confirmTotp,
  deleteTotp,
  createEmailAuthenticator,
  sendDisableEmailAuthenticatorCode,
  deleteEmailAuthenticator,
} from '../../lib/api/index.ts';
import { useAction } from './use-action.ts';
import Input from './Input.tsx';
import { fetchSelfUser } from '../../lib/stores/self-user.ts';
import { showToast } from '../../lib/stores/toast.ts';
import { downloadTextFile } from '../../lib/download.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useSelfUser } from '../use-self-user.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import type { Locale } from '../../lib/i18n/locales.ts';

type Step =
  | { name: 'loading' }
  | { name: 'guest' }
  | { name: 'off' }
  | { name: 'scan'; otpAuth: string; qr: string; key: string }
  | { name: 'codes'; backupCode: string[]; recoveryCode: string }
  | { name: 'on'; since: number }
  | { name: 'email' };

/** Settings > Security: the TOTP wizard (QR code, first code, backup codes as .txt) and turning it off. */
export default function SecuritySettings({ locale, messages }: { locale: Locale; messages: Messages }) {
  const t = useIslandTranslation(locale, messages);
  const self = useSelfUser();
  const [step, setStep] = useState<Step>({ name: 'loading' });
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, run } = useAction(t('api.internal'));

  const refresh = async () => {
    try {
      const status = await have2FA();
      setStep(
        status.type === 'totp'
          ? { name: 'on', since: status.totpCreationDateTime ?? Date.now() }
          : status.type === 'email'
            ? { name: 'email' }
            : { name: 'off' },
      );
    } catch {
      setStep({ name: 'guest' });
    }
  };
  // Only logging in or out changes what this page shows; other updates of the self user
  // (e.g. after turning 2FA on) must not replace the backup-code screen. A guest is not asked
  // about 2FA at all: the server would only answer 401.
  useEffect(() => {
    if (!self.isEffectiveCheckOnce) return;
    if (self.isLogined) void refresh();
    else setStep({ name: 'guest' });
  }, [self.isEffectiveCheckOnce, self.isLogined]);

  const act = (action: () => Promise<void>) => async (event?: FormEvent) => {
    event?.preventDefault();
    await run(action);
  };

  const start = act(async () => {
    // An account that has a second factor already is refused (409): the page then shows the message.
    const { result } = await createTotp();
    const qr = await QRCode.toDataURL(result.otpAuth, { margin: 1, width: 220 });
    setStep({
      name: 'scan',
      otpAuth: result.otpAuth,
      qr,
      key: new URL(result.otpAuth).searchParams.get('secret') ?? '',
    });
    setCode('');
  });
  const confirm = act(async () => {
    if (step.name !== 'scan') return;
    const { result } = await confirmTotp(code.trim(), step.otpAuth);
    setStep({ name: 'codes', ...result });
    showToast({ message: t('security.enabled'), severity: 'success' });
    void fetchSelfUser();
  });
  const turnOff = act(async () => {
    await deleteTotp(code.trim(), password);
    setCode('');
    setPassword('');
    showToast({ message: t('security.disabled'), severity: 'info' });
    void fetchSelfUser();
    await refresh();
  });

  const chooseEmail = act(async () => {
    await createEmailAuthenticator();
    showToast({ message: t('security.enabled'), severity: 'success' });
    void fetchSelfUser();
    await refresh();
  });
  const sendDisableCode = act(async () => {
    await sendDisableEmailAuthenticatorCode(locale);
    showToast({ message: t('security.emailCodeSent'), severity: 'info' });
  });
  const turnOffEmail = act(async () => {
    await deleteEmailAuthenticator(password, code.trim());
    setCode('');
    setPassword('');
    showToast({ message: t('security.disabled'), severity: 'info' });
    void fetchSelfUser();
    await refresh();
  });

  const saveCodes = () => {
    if (step.name !== 'codes') return;
    const account = self.userInfo?.email ?? '';
    const text = [
      t('security.codesFileHeading', { account }),
      '',
      t('security.backupCodes'),
      ...step.backupCode,
      '',
      t('security.recoveryCode'),
      step.recoveryCode,
      '',
    ].join('\n');
    downloadTextFile(`kiraboshi-backup-codes-${account || 'account'}`, text);
  };

  if (step.name === 'loading')
    return (
      <div className="card" aria-busy="true">
        …
      </div>
    );
  if (step.name === 'guest')
    return (
      <div className="card" data-security-state="guest">
        <p>{t('validation.notLoggedIn')}</p>
      </div>
    );
  return (
    <section className="card security-card" data-security-state={step.name}>
      <h2>{t('security.twoFactor')}</h2>
      {step.name === 'off' && (
        <>
          <p>{t('security.twoFactorOff')}</p>
          <button type="button" className="button" onClick={() => void start()} disabled={busy}>
            {t('security.enable')}
          </button>
          <p className="field-hint">{t('security.emailOption')}</p>
          <button type="button" className="button secondary" onClick={() => void chooseEmail()} disabled={busy}>
            {t('security.enableEmail')}
          </button>
        </>
      )}
      {step.name === 'email' && (
        <form onSubmit={(e) => void turnOffEmail(e)} className="auth-form">
          <p>{t('security.emailOn')}</p>
          <p className="field-hint">{t('security.disableHint')}</p>
          <Input
            label={t('security.password')}
            type="password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <div className="code-row">
            <Input
              label={t('security.code')}
              name="emailCode"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
            <button type="button" className="button secondary" onClick={() => void sendDisableCode()} disabled={busy}>
              {t('security.sendDisableCode')}
            </button>
          </div>
          <button type="submit" className="button secondary" disabled={busy}>
            {t('security.disable')}
          </button>
        </form>
      )}
      {step.name === 'scan' && (
        <form onSubmit={(e) => void confirm(e)} className="auth-form">
          <p>{t('security.scanQr')}</p>
          <img className="totp-qr" src={step.qr} width={220} height={220} alt="otpauth QR" />
          <p className="field-hint">
            {t('security.manualKey')} <code data-totp-key>{step.key}</code>
          </p>
          <label className="field">
            <span className="field-label">{t('security.code')}</span>
            <input
              name="totp"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="\d{6}"
              maxLength={6}
              required
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
          </label>
          <button type="submit" className="button" disabled={busy}>
            {t('security.confirm')}
          </button>
        </form>
      )}
      {step.name === 'codes' && (
        <>
          <p>{t('security.saveCodes')}</p>
          <h3>{t('security.backupCodes')}</h3>
          <ul className="code-list" data-backup-codes>
            {step.backupCode.map((c) => (
              <li key={c}>
                <code>{c}</code>
              </li>
            ))}
          </ul>
          <h3>{t('security.recoveryCode')}</h3>
          <p>
            <code data-recovery-code>{step.recoveryCode}</code>
          </p>
          <div className="error-actions">
            <button type="button" className="button secondary" onClick={saveCodes}>
              {t('security.download')}
            </button>
            <button type="button" className="button" onClick={() => void refresh()}>
              {t('security.done')}
            </button>
          </div>
        </>
      )}
      {step.name === 'on' && (
        <form onSubmit={(e) => void turnOff(e)} className="auth-form">
          <p>
            {t('security.twoFactorOn', {
              date: new Date(step.since).toLocaleDateString(document.documentElement.lang),
            })}
          </p>
          <p className="field-hint">{t('security.disableHint')}</p>
          <Input
            label={t('security.password')}
            type="password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <Input
            label={t('security.code')}
            name="totp"
            autoComplete="one-time-code"
            maxLength={32}
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
          <button type="submit" className="button secondary" disabled={busy}>
            {t('security.disable')}
          </button>
        </form>
      )}
      {error && (
        <p className="auth-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
