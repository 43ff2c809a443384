import { useEffect, useState, type FormEvent, type KeyboardEvent } from 'react';
import { getUserInfo, updateInfo, uploadAvatar } from '../../lib/api/index.ts';
import { fetchSelfUser } from '../../lib/stores/self-user.ts';
import { showToast } from '../../lib/stores/toast.ts';
import { localizePath, type Locale } from '../../lib/i18n/locales.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useSelfUser } from '../use-self-user.ts';
import { useAction, FormError } from './use-action.ts';
import ImageCropper from './ImageCropper.tsx';
import type { Messages } from '../../lib/i18n/translate.ts';

const MAX_TAGS = 10;
const EMPTY = {
  username: '',
  userNickname: '',
  signature: '',
  gender: '' as '' | 'male' | 'female' | 'other',
  userBirthday: '',
  websiteName: '',
  websiteUrl: '',
};

/** Settings > Profile: nickname, username, signature, gender, birthday, tags and website. */
export default function ProfileSettings({ locale, messages }: { locale: Locale; messages: Messages }) {
  const t = useIslandTranslation(locale, messages);
  const self = useSelfUser();
  const [form, setForm] = useState(EMPTY);
  const [tags, setTags] = useState<string[]>([]);
  const [tagInput, setTagInput] = useState('');
  const [avatar, setAvatar] = useState('');
  const [picked, setPicked] = useState<File | null>(null);
  const avatarAction = useAction(t('api.internal'));
  const { busy, error, run } = useAction(t('api.internal'));
  const uid = self.userInfo?.uid;

  useEffect(() => {
    if (!uid) return;
    void getUserInfo(uid).then(({ result: p }) => {
      setForm({
        username: p.username,
        userNickname: p.userNickname ?? '',
        signature: p.signature,
        gender: p.gender as typeof EMPTY.gender,
        userBirthday: p.userBirthday,
        websiteName: p.userWebsite.websiteName,
        websiteUrl: p.userWebsite.websiteUrl,
      });
      setTags(p.label.map((l) => l.labelName));
      setAvatar(p.avatar);
    });
  }, [uid]);

  if (!self.isEffectiveCheckOnce)
    return (
      <div className="card" aria-busy="true">
        …
      </div>
    );
  if (!uid)
    return (
      <div className="card" data-profile-state="guest">
        <p>{t('validation.notLoggedIn')}</p>
      </div>
    );

  const set = (key: keyof typeof EMPTY) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));
  const addTag = () => {
    const tag = tagInput.trim();
    if (tag && !tags.includes(tag) && tags.length < MAX_TAGS) setTags([...tags, tag]);
    setTagInput('');
  };
  const onTagKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      addTag();
    }
  };
  const changeAvatar = (file: Blob) => {
    setPicked(null);
    void avatarAction.run(async () => {
      setAvatar(await uploadAvatar(file));
      await fetchSelfUser();
      showToast({ message: t('profile.avatarSaved'), severity: 'success' });
    });
  };
  const save = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      await updateInfo({
        username: form.username,
        userNickname: form.userNickname,
        signature: form.signature,
        gender: form.gender,
        userBirthday: form.userBirthday,
        label: tags.map((labelName) => ({ labelName })),
        userWebsite: { websiteName: form.websiteName, websiteUrl: form.websiteUrl.trim() },
      });
      await fetchSelfUser();
      showToast({ message: t('profile.saved'), severity: 'success', duration: 4000 });
    });
  };

  return (
    <form className="card auth-form profile-form" onSubmit={save} data-profile-state="ready">
      <p className="field-hint">{t('profile.underReview')}</p>
      <div className="avatar-row">
        {avatar ? (
          <img className="avatar-large" src={avatar} alt={t('profile.avatar')} width={96} height={96} />
        ) : (
          <div className="avatar-large avatar-empty" aria-hidden="true">
            ✦
          </div>
        )}
        <div className="field">
          <label className="button secondary avatar-pick">
            {t('profile.changeAvatar')}
            <input
              type="file"
              name="avatar"
              accept="image/jpeg,image/png,image/webp,image/gif,image/avif"
              hidden
              disabled={avatarAction.busy}
              onChange={(e) => {
                setPicked(e.target.files?.[0] ?? null);
                e.target.value = '';
              }}
            />
          </label>
          <span className="field-hint">{t('profile.avatarHint')}</span>
          {avatarAction.error && (
            <span className="auth-error" role="alert">
              {avatarAction.error}
            </span>
          )}
        </div>
      </div>
      {picked && (
        <ImageCropper
          key={`${picked.name}-${picked.lastModified}`}
          file={picked}
          onCancel={() => setPicked(null)}
          onConfirm={changeAvatar}
          labels={{
            title: t('profile.cropTitle'),
            hint: t('profile.cropHint'),
            zoom: t('profile.zoom'),
            confirm: t('profile.useAvatar'),
            cancel: t('profile.cancel'),
          }}
          onInvalid={() => {
            setPicked(null);
            void avatarAction.run(async () => {
              throw new FormError(t('api.notAnImage'));
            });
          }}
        />
      )}
      <label className="field">
        <span className="field-label">{t('profile.nickname')}</span>
        <input name="userNickname" maxLength={40} value={form.userNickname} onChange={set('userNickname')} />
      </label>
      <label className="field">
        <span className="field-label">{t('profile.username')}</span>
        <input name="username" required maxLength={40} value={form.username} onChange={set('username')} />
      </label>
      <label className="field">
        <span className="field-label">{t('profile.signature')}</span>
        <textarea
          name="signature"
          maxLength={200}
          rows={3}
          placeholder={t('profile.signaturePlaceholder')}
          value={form.signature}
          onChange={set('signature')}
        />
      </label>
      <div className="field-row">
        <label className="field">
          <span className="field-label">{t('profile.gender')}</span>
          <select name="gender" value={form.gender} onChange={set('gender')}>
            <option value="">{t('profile.genderNone')}</option>
            <option value="male">{t('profile.genderMale')}</option>
            <option value="female">{t('profile.genderFemale')}</option>
            <option value="other">{t('profile.genderOther')}</option>
          </select>
        </label>
        <label className="field">
          <span className="field-label">{t('profile.birthday')}</span>
          <input type="date" name="userBirthday" value={form.userBirthday} onChange={set('userBirthday')} />
        </label>
      </div>
      <div className="field">
        <span className="field-label">{t('profile.tags')}</span>
        <ul className="user-tags" data-tags>
          {tags.map((tag) => (
            <li key={tag} className="tag-chip">
              {tag}{' '}
              <button
                type="button"
                className="link-button"
                aria-label={t('profile.removeTag', { tag })}
                onClick={() => setTags(tags.filter((x) => x !== tag))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
        <div className="code-row">
          <input
            name="tag"
            maxLength={20}
            value={tagInput}
            onChange={(e) => setTagInput(e.target.value)}
            onKeyDown={onTagKey}
            disabled={tags.length >= MAX_TAGS}
          />
          <button type="button" className="button secondary" onClick={addTag} disabled={tags.length >= MAX_TAGS}>
            {t('profile.addTag')}
          </button>
        </div>
        <span className="field-hint">{t('profile.tagsHint')}</span>
      </div>
      <div className="field-row">
        <label className="field">
          <span className="field-label">{t('profile.websiteName')}</span>
          <input name="websiteName" maxLength={40} value={form.websiteName} onChange={set('websiteName')} />
        </label>
        <label className="field">
          <span className="field-label">{t('profile.websiteUrl')}</span>
          <input
            type="url"
            name="websiteUrl"
            placeholder="https://"
            value={form.websiteUrl}
            onChange={set('websiteUrl')}
          />
        </label>
      </div>
      {error && (
        <p className="auth-error" role="alert">
          {error}
        </p>
      )}
      <div className="error-actions">
        <button type="submit" className="button" disabled={busy}>
          {t('profile.save')}
        </button>
        <a className="button secondary" href={localizePath(`/user/${uid}`, locale)}>
          {t('profile.viewPage')}
        </a>
      </div>
    </form>
  );
}
