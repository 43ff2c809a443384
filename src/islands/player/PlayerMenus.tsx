import { levelLabel, menuLevels, type QualityLevel } from '../../lib/player/quality.ts';
import { RATE_MAX, RATE_MIN, RATE_STEPS } from '../../lib/player/shortcuts.ts';
import { sliderToVolume, volumeToSlider } from '../../lib/player/shortcuts.ts';
import type { PlayerSettings } from '../../lib/stores/player-settings.ts';
import { Icon } from './icons.tsx';

type T = (key: string, options?: Record<string, unknown>) => string;

/** Quality: automatic (with the rung playing now) or a fixed rung. */
export function QualityMenu({
  t,
  levels,
  auto,
  playing,
  onPick,
}: {
  t: T;
  levels: QualityLevel[];
  auto: boolean;
  playing: QualityLevel | null;
  onPick: (level: QualityLevel | null) => void;
}) {
  return (
    <div className="player-popover player-menu" role="menu" aria-label={t('player.quality')} data-quality-menu>
      {menuLevels(levels).map((l) => (
        <button
          key={l.index}
          type="button"
          role="menuitemradio"
          aria-checked={!auto && playing?.height === l.height}
          onClick={() => onPick(l)}
        >
          {levelLabel(l)}
        </button>
      ))}
      <button type="button" role="menuitemradio" aria-checked={auto} onClick={() => onPick(null)}>
        {t('player.auto')}
        {auto && playing ? ` (${levelLabel(playing)})` : ''}
      </button>
    </div>
  );
}

/** Playback rate: the steps, or a continuous slider when the viewer prefers it. */
export function RateMenu({
  t,
  rate,
  continuous,
  onRate,
}: {
  t: T;
  rate: number;
  continuous: boolean;
  onRate: (rate: number) => void;
}) {
  return (
    <div className="player-popover player-menu" role="menu" aria-label={t('player.rate')} data-rate-menu>
      {continuous ? (
        <label className="slider-row vertical">
          <input
            type="range"
            min={RATE_MIN}
            max={RATE_MAX}
            step={0.05}
            value={rate}
            aria-label={t('player.rate')}
            onChange={(e) => onRate(Number(e.target.value))}
          />
          <output>{rate.toFixed(2)}×</output>
        </label>
      ) : (
        [...RATE_STEPS].reverse().map((r) => (
          <button
            key={r}
            type="button"
            role="menuitemradio"
            aria-checked={Math.abs(rate - r) < 1e-9}
            onClick={() => onRate(r)}
          >
            {r}×
          </button>
        ))
      )}
    </div>
  );
}

/**
 * Volume on a perceptual (loudness) scale, and mute. Under a mouse it opens on hover beside the
 * mute button; opened with a finger it is a panel of its own: a big mute button and a slider
 * across (or, where the device keeps the volume to its buttons, a note saying so).
 */
export function VolumeSlider({
  t,
  volume,
  muted,
  onVolume,
  touch,
  adjustable = true,
  onMute,
}: {
  t: T;
  volume: number;
  muted: boolean;
  onVolume: (volume: number) => void;
  touch?: boolean;
  adjustable?: boolean;
  onMute?: () => void;
}) {
  const slider = muted ? 0 : volumeToSlider(volume);
  return (
    <div
      className={`player-popover volume-popover${touch ? ' touch' : ''}`}
      role={touch ? 'dialog' : undefined}
      aria-label={touch ? t('player.volume') : undefined}
      data-volume-popover
    >
      {touch && (
        <button type="button" className="ctl volume-mute" aria-pressed={muted} onClick={onMute} data-volume-mute>
          <Icon name={slider === 0 ? 'muted' : 'volume'} />
          <span>{muted ? t('player.unmute') : t('player.mute')}</span>
        </button>
      )}
      {adjustable ? (
        <>
          <output>{Math.round(slider * 100)}</output>
          <input
            type="range"
            className="volume-slider"
            min={0}
            max={1}
            step={0.01}
            value={slider}
            aria-label={t('player.volume')}
            onChange={(e) => onVolume(sliderToVolume(Number(e.target.value)))}
            data-volume-slider
          />
        </>
      ) : (
        <p className="volume-fixed">{t('player.volumeFixed')}</p>
      )}
    </div>
  );
}

type Toggles = Pick<PlayerSettings, 'autoplay' | 'loop'> & PlayerSettings['rate'] & PlayerSettings['controller'];
const TOGGLES: Array<keyof Toggles> = [
  'autoplay',
  'loop',
  'autoResumePlayAfterSeeking',
  'preservesPitch',
  'continuousControl',
  'showStop',
  'showReplay',
  'showFrameByFrame',
];

/** Playback settings: the switches of SPEC §3 player settings, and the statistics panel. */
export function PlaybackSettings({
  t,
  settings,
  onToggle,
  onStats,
}: {
  t: T;
  settings: PlayerSettings;
  onToggle: (key: keyof Toggles, value: boolean) => void;
  onStats: () => void;
}) {
  const value: Toggles = { autoplay: settings.autoplay, loop: settings.loop, ...settings.rate, ...settings.controller };
  return (
    <div
      className="player-popover playback-settings"
      role="dialog"
      aria-label={t('player.settings')}
      data-playback-settings
    >
      {TOGGLES.map((key) => (
        <label key={key} className="switch-row">
          <span>{t(`player.toggles.${key}`)}</span>
          <input
            type="checkbox"
            role="switch"
            checked={value[key]}
            onChange={(e) => onToggle(key, e.target.checked)}
            data-toggle={key}
          />
        </label>
      ))}
      <button type="button" className="link-button" onClick={onStats} data-open-stats>
        {t('player.statistics')}
      </button>
    </div>
  );
}

/** A track's name in the menu: its label, with the language in the interface's words when the label does not say it. */
export function trackName(track: { label: string; language: string }, locale: string): string {
  let language = track.language;
  try {
    language = new Intl.DisplayNames([locale], { type: 'language' }).of(track.language) ?? track.language;
  } catch {
    /* an unusual tag: shown as written */
  }
  return track.label.toLowerCase().includes(language.toLowerCase()) ? track.label : `${track.label} · ${language}`;
}

/** Subtitles: off, or one track of the part shown. */
export function SubtitleMenu<Track extends { id: number; label: string; language: string }>({
  t,
  lang,
  tracks,
  current,
  onPick,
  onIntent,
}: {
  t: T;
  lang: string;
  tracks: readonly Track[];
  current: Track | null;
  onPick: (track: Track | null) => void;
  /** The pointer over a track, or the focus on it: what it needs may start loading. */
  onIntent?: (track: Track) => void;
}) {
  return (
    <div
      className="player-popover player-menu subtitle-menu"
      role="menu"
      aria-label={t('player.subtitles.menu')}
      data-subtitle-menu
    >
      <button
        type="button"
        role="menuitemradio"
        aria-checked={current === null}
        onClick={() => onPick(null)}
        data-subtitle-off
      >
        {t('player.subtitles.off')}
      </button>
      {tracks.map((track) => (
        <button
          key={track.id}
          type="button"
          role="menuitemradio"
          aria-checked={current?.id === track.id}
          lang={track.language}
          onClick={() => onPick(track)}
          onPointerEnter={() => onIntent?.(track)}
          onFocus={() => onIntent?.(track)}
          data-subtitle-track={track.id}
          data-language={track.language}
        >
          {trackName(track, lang)}
        </button>
      ))}
    </div>
  );
}
