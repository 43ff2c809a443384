import { useEffect, useId, useState } from 'react';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import { showToast } from '../../lib/stores/toast.ts';
import {
  $themeValues,
  refreshTheme,
  setReducedMotion,
  setSyncAllowed,
  setThemeValue,
  type ThemeValues,
} from '../../lib/theme/theme-runtime.ts';
import {
  DEFAULT_ACCENT,
  PALETTE_NAMES,
  PALETTES,
  REDUCED_MOTION_KEY,
  THEME_DEFAULTS,
  THEME_KEYS,
  THEME_TYPES,
  normalizeHex,
} from '../../lib/theme/theme-core.js';
import { useHydratedStore } from '../use-hydrated-store.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useSelfUser } from '../use-self-user.ts';
import '../../styles/switch.css';
import './appearance.css';

const SERVER_SNAPSHOT: ThemeValues = THEME_DEFAULTS as ThemeValues;

/** Settings > Appearance: scheme, palette, coloured side bar, reduced motion and theme sync. */
export default function AppearanceSettings({ locale, messages }: { locale: Locale; messages: Messages }) {
  const t = useIslandTranslation(locale, messages);
  const stored = useHydratedStore($themeValues, SERVER_SNAPSHOT);
  const values = Object.keys(stored).length ? stored : SERVER_SNAPSHOT;
  const self = useSelfUser();
  const ids = useId();
  const [reducedMotion, setReducedMotionState] = useState(false);
  useEffect(() => {
    refreshTheme();
    setReducedMotionState(localStorage.getItem(REDUCED_MOTION_KEY) === 'true');
  }, []);

  const change = async (key: string, value: string) => {
    if (!(await setThemeValue(key, value))) showToast({ message: t('appearance.syncFailed'), severity: 'warning' });
  };
  const type = values[THEME_KEYS.type];
  const color = values[THEME_KEYS.color];
  const customHex = normalizeHex(values[THEME_KEYS.custom]) ?? DEFAULT_ACCENT;
  const coloredSideBar = values[THEME_KEYS.coloredSideBar] === 'true';
  const syncOn = values[THEME_KEYS.allowSync] === 'true';

  return (
    <div className="settings-stack appearance" data-appearance>
      <fieldset className="card appearance-group">
        <legend>{t('appearance.themeType')}</legend>
        <div className="theme-type-list">
          {THEME_TYPES.map((name) => (
            <label key={name} className="theme-type-option" data-theme-type-option={name}>
              <input
                type="radio"
                name={`${ids}-type`}
                value={name}
                checked={type === name}
                onChange={() => void change(THEME_KEYS.type, name)}
              />
              <span className={`theme-type-preview preview-${name}`} aria-hidden="true">
                <span />
                <span />
              </span>
              <span>{t(`appearance.types.${name}`)}</span>
            </label>
          ))}
        </div>
      </fieldset>

      <fieldset className="card appearance-group">
        <legend>{t('appearance.palette')}</legend>
        <div className="palette-list">
          {PALETTE_NAMES.map((name) => (
            <label key={name} className="palette-option" data-palette-option={name}>
              <input
                type="radio"
                name={`${ids}-palette`}
                value={name}
                checked={color === name}
                onChange={() => void change(THEME_KEYS.color, name)}
              />
              <span
                className={`palette-swatch swatch-${name}`}
                aria-hidden="true"
                style={{
                  background:
                    name === 'custom'
                      ? `#${customHex}`
                      : name === 'wallpaper'
                        ? undefined
                        : `#${PALETTES[name as keyof typeof PALETTES]}`,
                }}
              />
              <span>{t(`appearance.palettes.${name}`)}</span>
            </label>
          ))}
        </div>
        {color === 'custom' && (
          <label className="custom-color">
            <span>{t('appearance.customColor')}</span>
            <input
              type="color"
              value={`#${customHex}`}
              data-custom-color
              onChange={(event) =>
                void change(THEME_KEYS.custom, normalizeHex(event.currentTarget.value) ?? DEFAULT_ACCENT)
              }
            />
            <code>#{customHex}</code>
          </label>
        )}
        {color === 'wallpaper' && <p className="hint">{t('appearance.wallpaperHint')}</p>}
        <p className="hint">{t('appearance.contrastHint')}</p>
      </fieldset>

      <div className="card appearance-group">
        <label className="switch-row">
          <span className="switch-text">
            <strong>{t('appearance.coloredSideBar')}</strong>
            <small className="hint">{t('appearance.coloredSideBarHint')}</small>
          </span>
          <input
            type="checkbox"
            role="switch"
            className="switch"
            checked={coloredSideBar}
            data-colored-side-bar-switch
            onChange={(event) => void change(THEME_KEYS.coloredSideBar, String(event.currentTarget.checked))}
          />
        </label>
        <label className="switch-row">
          <span className="switch-text">
            <strong>{t('appearance.reducedMotion')}</strong>
            <small className="hint">{t('appearance.reducedMotionHint')}</small>
          </span>
          <input
            type="checkbox"
            role="switch"
            className="switch"
            checked={reducedMotion}
            data-reduced-motion-switch
            onChange={(event) => {
              const on = event.currentTarget.checked;
              setReducedMotion(on);
              setReducedMotionState(on);
            }}
          />
        </label>
        <label className="switch-row">
          <span className="switch-text">
            <strong>{t('appearance.sync')}</strong>
            <small className="hint">{self.userInfo ? t('appearance.syncHint') : t('appearance.syncGuest')}</small>
          </span>
          <input
            type="checkbox"
            role="switch"
            className="switch"
            checked={syncOn}
            data-sync-switch
            onChange={async (event) => {
              if (!(await setSyncAllowed(event.currentTarget.checked)))
                showToast({ message: t('appearance.syncFailed'), severity: 'warning' });
            }}
          />
        </label>
      </div>
    </div>
  );
}
