import { DANMAKU_DENSITIES } from '../../lib/danmaku/density.ts';
import type { PlayerSettings } from '../../lib/stores/player-settings.ts';
import '../../styles/danmaku-settings.css';

type DanmakuPrefs = PlayerSettings['danmaku'];
interface Props {
  t: (key: string, options?: Record<string, unknown>) => string;
  value: DanmakuPrefs;
  onChange: (change: Partial<DanmakuPrefs>) => void;
  /** Whether the media can show subtitles (a video; not a track): only then is there a line to keep clear. */
  hasSubtitles?: boolean;
}

const AREAS = [0.25, 0.5, 0.75, 1] as const;
const BLOCK_TYPES = ['scroll', 'top', 'bottom', 'colored'] as const;

/**
 * The danmaku settings popover: density first (what a storm needs at hand, within a thumb's
 * reach on a phone), then what to hide, opacity, size, speed and the area comments may use.
 */
export default function DanmakuSettings({ t, value, onChange, hasSubtitles = true }: Props) {
  const percent = (n: number) => `${Math.round(n * 100)}%`;
  return (
    <div
      className="player-popover danmaku-settings"
      role="dialog"
      aria-label={t('player.danmakuSettings')}
      data-danmaku-settings
    >
      <fieldset className="density" aria-describedby="danmaku-density-hint">
        <legend>{t('player.density')}</legend>
        <div className="chip-row segmented">
          {DANMAKU_DENSITIES.map((density) => (
            <label key={density} className="chip">
              <input
                type="radio"
                name="danmaku-density"
                value={density}
                checked={value.density === density}
                onChange={() => onChange({ density })}
                data-danmaku-density={density}
              />
              {t(`player.densities.${density}`)}
            </label>
          ))}
        </div>
        <p className="density-hint" id="danmaku-density-hint">
          {t(`player.densityHints.${value.density}`)}
        </p>
      </fieldset>
      <fieldset>
        <legend>{t('player.blockTypes')}</legend>
        <div className="chip-row">
          {BLOCK_TYPES.map((type) => (
            <label key={type} className="chip">
              <input
                type="checkbox"
                checked={value.block[type]}
                onChange={(e) => onChange({ block: { ...value.block, [type]: e.target.checked } })}
              />
              {t(`player.block.${type}`)}
            </label>
          ))}
        </div>
      </fieldset>
      <label className="slider-row">
        <span>{t('player.opacity')}</span>
        <input
          type="range"
          min={0.1}
          max={1}
          step={0.05}
          value={value.opacity}
          onChange={(e) => onChange({ opacity: Number(e.target.value) })}
        />
        <output>{percent(value.opacity)}</output>
      </label>
      <label className="slider-row">
        <span>{t('player.fontScale')}</span>
        <input
          type="range"
          min={0.5}
          max={2}
          step={0.05}
          value={value.fontSizeScale}
          onChange={(e) => onChange({ fontSizeScale: Number(e.target.value) })}
        />
        <output>{percent(value.fontSizeScale)}</output>
      </label>
      <label className="slider-row">
        <span>{t('player.speed')}</span>
        <input
          type="range"
          min={0.4}
          max={1.6}
          step={0.1}
          value={value.speed}
          onChange={(e) => onChange({ speed: Number(e.target.value) })}
          data-danmaku-speed
        />
        <output>{value.speed.toFixed(1)}×</output>
      </label>
      <fieldset>
        <legend>{t('player.area')}</legend>
        <div className="chip-row">
          {AREAS.map((area) => (
            <label key={area} className="chip">
              <input
                type="radio"
                name="danmaku-area"
                checked={value.area === area}
                onChange={() => onChange({ area })}
              />
              {area === 1 ? t('player.areaFull') : percent(area)}
            </label>
          ))}
        </div>
      </fieldset>
      {hasSubtitles && (
        <label className="check">
          <input
            type="checkbox"
            checked={value.keepSubtitlesClear}
            onChange={(e) => onChange({ keepSubtitlesClear: e.target.checked })}
          />
          {t('player.keepSubtitlesClear')}
        </label>
      )}
    </div>
  );
}
