import { persistentAtom } from '@nanostores/persistent';
import { DANMAKU_DENSITIES, type DanmakuDensity } from '../danmaku/density.ts';

/** Player settings of SPEC §3, plus the danmaku display choices; kept across islands and reloads. */
export interface PlayerSettings {
  autoplay: boolean;
  audio: { volume: number; muted: boolean };
  rate: { preservesPitch: boolean; continuousControl: boolean };
  danmaku: {
    opacity: number;
    fontSizeScale: number;
    enabled: boolean;
    /** 0.4–1.6 */
    speed: number;
    /** Share of the height comments may use: 0.25, 0.5, 0.75 or 1. */
    area: number;
    keepSubtitlesClear: boolean;
    /** How crowded the stage may get: no overlap (readable), tighter lanes (dense), or every comment (all). */
    density: DanmakuDensity;
    block: { scroll: boolean; top: boolean; bottom: boolean; colored: boolean };
  };
  controller: {
    showStop: boolean;
    showReplay: boolean;
    showFrameByFrame: boolean;
    autoResumePlayAfterSeeking: boolean;
  };
  /** preferred: the chosen rung's height (720); 0 until one is chosen. */
  quality: { auto: boolean; preferred: number };
  /** The time display: played so far, or what is left (a countdown). */
  countdown: boolean;
  loop: boolean;
}

export const DEFAULT_PLAYER_SETTINGS: PlayerSettings = {
  autoplay: false,
  audio: { volume: 1, muted: false },
  rate: { preservesPitch: true, continuousControl: false },
  danmaku: {
    opacity: 1,
    fontSizeScale: 1,
    enabled: true,
    speed: 1,
    area: 1,
    keepSubtitlesClear: false,
    density: 'readable',
    block: { scroll: false, top: false, bottom: false, colored: false },
  },
  controller: { showStop: false, showReplay: false, showFrameByFrame: false, autoResumePlayAfterSeeking: true },
  quality: { auto: true, preferred: 0 },
  countdown: false,
  loop: false,
};

/** Stored settings merged over the defaults, so fields added later get their default. */
export function mergePlayerSettings(stored: unknown): PlayerSettings {
  const s = (stored && typeof stored === 'object' ? stored : {}) as Partial<PlayerSettings>;
  const d = DEFAULT_PLAYER_SETTINGS;
  return {
    autoplay: typeof s.autoplay === 'boolean' ? s.autoplay : d.autoplay,
    audio: { ...d.audio, ...s.audio },
    rate: { ...d.rate, ...s.rate },
    danmaku: {
      ...d.danmaku,
      ...s.danmaku,
      block: { ...d.danmaku.block, ...s.danmaku?.block },
      density: DANMAKU_DENSITIES.includes(s.danmaku?.density as DanmakuDensity)
        ? s.danmaku!.density
        : d.danmaku.density,
    },
    controller: { ...d.controller, ...s.controller },
    quality: { ...d.quality, ...s.quality },
    countdown: typeof s.countdown === 'boolean' ? s.countdown : d.countdown,
    loop: typeof s.loop === 'boolean' ? s.loop : d.loop,
  };
}

export const $playerSettings = persistentAtom<PlayerSettings>('player-settings', DEFAULT_PLAYER_SETTINGS, {
  encode: JSON.stringify,
  decode: (text) => {
    try {
      return mergePlayerSettings(JSON.parse(text));
    } catch {
      return DEFAULT_PLAYER_SETTINGS;
    }
  },
});

/** Changes one group of settings, keeping the rest. */
export function updatePlayerSettings<K extends keyof PlayerSettings>(
  key: K,
  change: PlayerSettings[K] extends object ? Partial<PlayerSettings[K]> : PlayerSettings[K],
) {
  const current = $playerSettings.get();
  const value = typeof current[key] === 'object' ? { ...(current[key] as object), ...(change as object) } : change;
  $playerSettings.set({ ...current, [key]: value });
}
