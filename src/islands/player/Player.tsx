/**
 * The video player island: the video (hls.js loaded after first paint, only where MSE exists),
 * danmaku drawn on a canvas on the video's clock, the control bar and its menus, the sender
 * bar and the danmaku list. It composes small components; the logic lives in src/lib.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { useStore } from '@nanostores/react';
import type { Danmaku, Storyboard } from '../../lib/api/contract.ts';
import { HttpError } from '../../lib/api/http.ts';
import { countWatch } from '../../lib/api/calls/video.ts';
import { getHistoryAnchor, recordHistory } from '../../lib/api/calls/interaction.ts';
import { DanmakuOverlay, type OverlayOptions } from '../../lib/danmaku/overlay.ts';
import { attachHls, type HlsSource } from '../../lib/player/hls-source.ts';
import type { QualityLevel } from '../../lib/player/quality.ts';
import {
  actionFor, formatTimecode, screenshotName, stepRate, volumeToSlider, sliderToVolume, RATE_MAX, RATE_MIN, SEEK_STEP_SECONDS, VOLUME_STEP,
  type PlayerAction,
} from '../../lib/player/shortcuts.ts';
import { downloadBlob, takeScreenshot } from '../../lib/player/screenshot.ts';
import { resumePosition, HISTORY_INTERVAL_MS } from '../../lib/player/resume.ts';
import { FrameTracker, trackFrames } from '../../lib/player/frames.ts';
import { $playerSettings, updatePlayerSettings, type PlayerSettings } from '../../lib/stores/player-settings.ts';
import { $blockLists, loadBlockLists } from '../../lib/stores/block-lists.ts';
import { $selfUser } from '../../lib/stores/self-user.ts';
import { showToast } from '../../lib/stores/toast.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { usePlayerSettings } from './use-player-settings.ts';
import { Icon } from './icons.tsx';
import SeekBar from './SeekBar.tsx';
import DanmakuSender from './DanmakuSender.tsx';
import DanmakuListPanel from './DanmakuListPanel.tsx';
import DanmakuSettings from './DanmakuSettings.tsx';
import StatsPanel, { type PlaybackStats } from './StatsPanel.tsx';
import { PlaybackSettings, QualityMenu, RateMenu, VolumeSlider } from './PlayerMenus.tsx';

export interface PlayerPart { id: number; title: string; link: string | null; poster: string | null; storyboard: Storyboard | null }
interface Props { locale: Locale; messages: Messages; videoId: number; title: string; parts: PlayerPart[] }

type Panel = 'quality' | 'rate' | 'volume' | 'danmaku' | 'settings' | null;
const CONTROLS_HIDE_MS = 2500;

const overlayOptions = (s: PlayerSettings, keywords: readonly string[], regexes: readonly string[]): OverlayOptions => ({
  enabled: s.danmaku.enabled, opacity: s.danmaku.opacity, fontScale: s.danmaku.fontSizeScale, speed: s.danmaku.speed, area: s.danmaku.area,
  keepSubtitlesClear: s.danmaku.keepSubtitlesClear, blocking: { ...s.danmaku.block, keywords, regexes },
});

const bufferedRanges = (v: HTMLVideoElement): Array<[number, number]> =>
  Array.from({ length: v.buffered.length }, (_, i) => [v.buffered.start(i), v.buffered.end(i)] as [number, number]);

export default function Player({ locale, messages, videoId, title, parts }: Props) {
  const translate = useIslandTranslation(locale, messages);
  const t = useCallback((key: string, options?: Record<string, unknown>) => String(translate(key, options as never)), [translate]);
  const settings = usePlayerSettings();
  const self = useStore($selfUser);
  const blockLists = useStore($blockLists);
  const member = self.isLogined && !!self.userInfo;

  const root = useRef<HTMLDivElement>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const overlay = useRef<DanmakuOverlay | null>(null);
  const source = useRef<HlsSource | null>(null);
  const frames = useRef(new FrameTracker());

  const [partIndex, setPartIndex] = useState(0);
  const part = parts[partIndex];
  const [paused, setPaused] = useState(true);
  const [waiting, setWaiting] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);
  const [buffered, setBuffered] = useState<Array<[number, number]>>([]);
  const [rate, setRate] = useState(1);
  const [levels, setLevels] = useState<QualityLevel[]>([]);
  const [levelIndex, setLevelIndex] = useState(-1);
  const [panel, setPanel] = useState<Panel>(null);
  const [statsOpen, setStatsOpen] = useState(false);
  const [stats, setStats] = useState<PlaybackStats | null>(null);
  const [listOpen, setListOpen] = useState(false);
  const [danmaku, setDanmaku] = useState<readonly Danmaku[]>([]);
  const [fullscreen, setFullscreen] = useState(false);
  const [webFullscreen, setWebFullscreen] = useState(false);
  const [pictureInPicture, setPictureInPicture] = useState(false);
  const [controlsShown, setControlsShown] = useState(true);
  const [sourceKind, setSourceKind] = useState('');
  const hideTimer = useRef<number>(0);

  const video = () => videoRef.current!;

  // ---- Source: hls.js (lazy) or native HLS; the remembered quality applies at once ----
  useEffect(() => {
    const v = videoRef.current;
    if (!v || !part?.link) return;
    let cancelled = false;
    setLevels([]);
    setLevelIndex(-1);
    void attachHls(v, part.link, {
      choice: $playerSettings.get().quality,
      onLevels: (l) => !cancelled && setLevels(l),
      onLevelSwitched: (index) => !cancelled && setLevelIndex(index),
      onFatal: () => showToast({ message: t('player.playbackFailed'), severity: 'error' }),
    }).then((s) => {
      if (cancelled) return s.destroy();
      source.current = s;
      setSourceKind(s.kind);
      if ($playerSettings.get().autoplay) void v.play().catch(() => {});
    });
    return () => {
      cancelled = true;
      source.current?.destroy();
      source.current = null;
    };
  }, [part?.link]);

  // ---- Frames on screen, for frame steps at the stream's own rate ----
  useEffect(() => {
    frames.current = new FrameTracker();
    return trackFrames(video(), frames.current);
  }, [part?.link]);

  // ---- Danmaku overlay: one per part; settings and block lists reconfigure it ----
  useEffect(() => {
    const v = videoRef.current;
    const c = canvasRef.current;
    if (!v || !c) return;
    const s = $playerSettings.get();
    const lists = $blockLists.get();
    const o = new DanmakuOverlay(v, c, videoId, overlayOptions(s, lists.keywords, lists.regexes), { onList: (all) => setDanmaku([...all]) });
    overlay.current = o;
    return () => {
      o.destroy();
      overlay.current = null;
    };
  }, [videoId]);
  useEffect(() => {
    overlay.current?.configure(overlayOptions(settings, blockLists.keywords, blockLists.regexes));
  }, [settings.danmaku, blockLists]);
  useEffect(() => {
    if (member) void loadBlockLists();
  }, [member]);

  // ---- The element follows the settings ----
  useEffect(() => {
    const v = video();
    v.volume = settings.audio.volume;
    v.muted = settings.audio.muted;
    v.loop = settings.loop;
    v.preservesPitch = settings.rate.preservesPitch;
  }, [settings.audio, settings.loop, settings.rate.preservesPitch]);

  // ---- Element events ----
  useEffect(() => {
    const v = video();
    let watched = false;
    const on: Record<string, () => void> = {
      play: () => setPaused(false),
      pause: () => setPaused(true),
      playing: () => {
        setWaiting(false);
        // A view counts once playback really starts (the server counts one per viewer per hour).
        if (!watched) {
          watched = true;
          void countWatch(videoId).catch(() => {});
        }
      },
      waiting: () => setWaiting(true),
      canplay: () => setWaiting(false),
      timeupdate: () => setTime(v.currentTime),
      seeking: () => setTime(v.currentTime),
      durationchange: () => setDuration(Number.isFinite(v.duration) ? v.duration : 0),
      progress: () => setBuffered(bufferedRanges(v)),
      ratechange: () => setRate(v.playbackRate),
      ended: () => setPaused(true),
    };
    for (const [name, handler] of Object.entries(on)) v.addEventListener(name, handler);
    setPaused(v.paused);
    return () => {
      for (const [name, handler] of Object.entries(on)) v.removeEventListener(name, handler);
    };
  }, [videoId]);

  // ---- History: members resume where they left off; the position is written as they watch ----
  useEffect(() => {
    if (!member) return;
    const v = video();
    let cancelled = false;
    void getHistoryAnchor(videoId).then(({ anchor }) => {
      if (cancelled || anchor === null) return;
      const apply = () => {
        const at = resumePosition(anchor, v.duration);
        if (at === null || v.currentTime > 1) return;
        v.currentTime = at;
        showToast({ message: t('player.resumed', { time: formatTimecode(at) }), severity: 'info' });
      };
      if (v.readyState >= 1) apply();
      else v.addEventListener('loadedmetadata', apply, { once: true });
    }).catch(() => {});
    let lastRecorded = -1;
    const record = (keepalive = false) => {
      const anchor = Math.floor(v.currentTime * 10) / 10;
      if (!v.currentTime || anchor === lastRecorded) return;
      lastRecorded = anchor;
      void recordHistory(videoId, anchor, { keepalive }).catch(() => {});
    };
    const timer = window.setInterval(() => !v.paused && record(), HISTORY_INTERVAL_MS);
    const onPause = () => record();
    // The last position leaves with a keepalive request: on pagehide, and
    // when the page is hidden (mobile browsers may discard a hidden page without any pagehide).
    const onHide = () => record(true);
    const onVisibility = () => document.visibilityState === 'hidden' && record(true);
    v.addEventListener('pause', onPause);
    window.addEventListener('pagehide', onHide);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      cancelled = true;
      window.clearInterval(timer);
      v.removeEventListener('pause', onPause);
      window.removeEventListener('pagehide', onHide);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [member, videoId]);

  // ---- Fullscreen ----
  useEffect(() => {
    const onChange = () => setFullscreen(document.fullscreenElement === root.current);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  useEffect(() => {
    document.documentElement.toggleAttribute('data-web-fullscreen', webFullscreen);
  }, [webFullscreen]);
  useEffect(() => {
    const v = video();
    const onEnter = () => setPictureInPicture(true);
    const onLeave = () => setPictureInPicture(false);
    v.addEventListener('enterpictureinpicture', onEnter);
    v.addEventListener('leavepictureinpicture', onLeave);
    return () => {
      v.removeEventListener('enterpictureinpicture', onEnter);
      v.removeEventListener('leavepictureinpicture', onLeave);
    };
  }, []);

  // ---- Statistics, refreshed while shown ----
  useEffect(() => {
    if (!statsOpen) return;
    const read = () => {
      const v = video();
      const s = source.current;
      const q = v.getVideoPlaybackQuality?.();
      const ahead = bufferedRanges(v).find(([a, b]) => a <= v.currentTime && v.currentTime <= b);
      const current = s ? s.levels[s.currentLevel()] ?? null : null;
      setStats({
        width: v.videoWidth, height: v.videoHeight, level: current, auto: s?.isAuto() ?? true, source: s?.kind ?? '—', bandwidth: s?.bandwidth() ?? null,
        bufferAhead: ahead ? ahead[1] - v.currentTime : 0, droppedFrames: q?.droppedVideoFrames ?? 0, totalFrames: q?.totalVideoFrames ?? 0,
        danmakuOnStage: overlay.current?.stats.onStage ?? 0, danmakuDropped: overlay.current?.dropped ?? 0,
      });
    };
    read();
    const timer = window.setInterval(read, 500);
    return () => window.clearInterval(timer);
  }, [statsOpen]);

  // ---- Actions ----
  const togglePlay = useCallback(() => {
    const v = video();
    if (v.paused || v.ended) void v.play().catch(() => {});
    else v.pause();
  }, []);
  const seek = useCallback((to: number, resume = true) => {
    const v = video();
    v.currentTime = Math.min(Math.max(0, to), Number.isFinite(v.duration) ? Math.max(0, v.duration - 0.05) : to);
    setTime(v.currentTime);
    if (resume && v.paused && $playerSettings.get().controller.autoResumePlayAfterSeeking) void v.play().catch(() => {});
  }, []);
  const setVolume = (volume: number) => updatePlayerSettings('audio', { volume: Math.min(1, Math.max(0, volume)), muted: volume <= 0 });
  const changeRate = (next: number) => {
    const r = Math.min(RATE_MAX, Math.max(RATE_MIN, next));
    video().playbackRate = r;
    setRate(r);
  };
  const step = (direction: 1 | -1) => {
    const v = video();
    v.pause();
    v.currentTime = frames.current.stepTarget(v.currentTime, direction, source.current?.frameRate() ?? null);
  };
  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void root.current?.requestFullscreen?.().catch(() => {});
  };
  const pickQuality = (level: QualityLevel | null) => {
    source.current?.setLevel(level ? level.index : -1);
    updatePlayerSettings('quality', level ? { auto: false, preferred: level.height } : { auto: true });
    if (level) setLevelIndex(level.index);
    setPanel(null);
  };
  // One screenshot at a time: the top rung may take a moment, and a double click must not make two files.
  const shooting = useRef(false);
  const [shotBusy, setShotBusy] = useState(false);
  const screenshot = async () => {
    if (shooting.current) return;
    shooting.current = true;
    setShotBusy(true);
    try {
      const shot = await takeScreenshot(video(), { url: part?.link ?? null, source: source.current });
      if (!shot) return;
      downloadBlob(shot.blob, screenshotName(title, videoId, shot.time));
      if (!shot.fullResolution) showToast({ message: t('player.screenshotReduced'), severity: 'warning' });
    } finally {
      shooting.current = false;
      setShotBusy(false);
    }
  };
  const togglePip = async () => {
    try {
      if (document.pictureInPictureElement) await document.exitPictureInPicture();
      else if (typeof video().requestPictureInPicture !== 'function') throw new Error('picture-in-picture unsupported');
      else await video().requestPictureInPicture();
    } catch {
      // Refused by the browser (unsupported, turned off by a policy, no video yet): say so.
      showToast({ message: t('player.pipFailed'), severity: 'warning' });
    }
  };

  const run = (action: PlayerAction): boolean => {
    const v = video();
    const s = $playerSettings.get();
    switch (action) {
      case 'togglePlay': togglePlay(); break;
      case 'exitFullscreen':
        // Browsers usually leave fullscreen on Esc themselves; where the key reaches the page, the player does.
        if (panel || statsOpen) { setPanel(null); setStatsOpen(false); } else if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
        else if (webFullscreen) setWebFullscreen(false); else return false;
        break;
      case 'toggleFullscreen': toggleFullscreen(); break;
      case 'toggleDanmaku': updatePlayerSettings('danmaku', { enabled: !s.danmaku.enabled }); break;
      case 'toggleMute': updatePlayerSettings('audio', { muted: !s.audio.muted }); break;
      case 'volumeUp': setVolume(sliderToVolume(volumeToSlider(s.audio.muted ? 0 : s.audio.volume) + VOLUME_STEP)); break;
      case 'volumeDown': setVolume(sliderToVolume(volumeToSlider(s.audio.muted ? 0 : s.audio.volume) - VOLUME_STEP)); break;
      case 'seekBack': seek(v.currentTime - SEEK_STEP_SECONDS, false); break;
      case 'seekForward': seek(v.currentTime + SEEK_STEP_SECONDS, false); break;
      case 'rateDown': changeRate(stepRate(v.playbackRate, -1)); break;
      case 'rateUp': changeRate(stepRate(v.playbackRate, 1)); break;
      case 'previousFrame': step(-1); break;
      case 'nextFrame': step(1); break;
    }
    showControls();
    return true;
  };
  const runRef = useRef(run);
  runRef.current = run;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      const target = event.target as HTMLElement | null;
      const typing = !!target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) && !(target instanceof HTMLInputElement && /^(range|checkbox|radio)$/.test(target.type));
      const action = actionFor(event, typing);
      if (action && runRef.current(action)) event.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  // ---- Controls show on activity and hide while playing ----
  const panelOpen = useRef(false);
  panelOpen.current = panel !== null;
  const showControls = () => {
    setControlsShown(true);
    window.clearTimeout(hideTimer.current);
    // Not while a menu is open: on touch no pointer move keeps the controls up while one is used.
    hideTimer.current = window.setTimeout(() => !videoRef.current?.paused && !panelOpen.current && setControlsShown(false), CONTROLS_HIDE_MS);
  };
  useEffect(() => {
    if (paused) {
      window.clearTimeout(hideTimer.current);
      setControlsShown(true);
    } else showControls();
  }, [paused]);
  const lastTap = useRef(0);
  const lastPointer = useRef('mouse');
  const onStagePointerUp = (e: ReactPointerEvent) => {
    lastPointer.current = e.pointerType;
    if (e.target !== e.currentTarget && !(e.target as Element).matches('video, canvas')) return;
    if (panel) {
      setPanel(null);
      return showControls();
    }
    if (e.pointerType === 'mouse') return togglePlay();
    // Touch: a tap shows or hides the controls, a double tap plays or pauses.
    const now = e.timeStamp;
    const double = now - lastTap.current < 300;
    if (double) togglePlay();
    else if (controlsShown) setControlsShown(false);
    else showControls();
    // A third quick tap starts a new pair instead of toggling playback back.
    lastTap.current = double ? 0 : now;
  };

  const send = useCallback(async (body: Parameters<DanmakuOverlay['send']>[0]) => {
    const o = overlay.current;
    if (!o) return;
    try {
      await o.send(body);
    } catch (error) {
      const message = error instanceof HttpError ? (error.body as { message?: string } | undefined)?.message : undefined;
      showToast({ message: message || t('player.sendFailed'), severity: error instanceof HttpError && error.status === 429 ? 'warning' : 'error' });
      throw error;
    }
  }, [t]);
  const openLogin = () => void import('../auth/open-auth-dialog.ts').then((m) => m.openAuthDialog('login'));

  const playingLevel = levels[levelIndex] ?? null;
  const autoQuality = settings.quality.auto;
  const shownTime = settings.countdown && duration ? formatTimecode(time - duration) : formatTimecode(time);
  const volumeShown = settings.audio.muted ? 0 : settings.audio.volume;
  const toggle = (key: Panel) => setPanel((p) => (p === key ? null : key));
  const c = settings.controller;
  const classes = useMemo(() => ['player', webFullscreen && 'is-web-fullscreen', fullscreen && 'is-fullscreen', !controlsShown && 'controls-hidden', listOpen && 'with-list']
    .filter(Boolean).join(' '), [webFullscreen, fullscreen, controlsShown, listOpen]);

  return (
    <div className={classes} data-player data-source={sourceKind} data-level={playingLevel?.height ?? ''} data-levels={levels.map((l) => l.height).join(',')}
      data-quality={autoQuality ? 'auto' : String(settings.quality.preferred)}>
      <div className="player-main" ref={root}>
        <div className="player-stage" onPointerUp={onStagePointerUp} onPointerMove={(e) => e.pointerType === 'mouse' && showControls()}
          onDoubleClick={(e) => lastPointer.current === 'mouse' && (e.target as Element).matches('video, canvas') && toggleFullscreen()}>
          <video ref={videoRef} playsInline preload="metadata" poster={part?.poster ?? undefined} crossOrigin="anonymous" aria-label={title} data-video />
          <div className="danmaku-layer"><canvas ref={canvasRef} data-danmaku-stage aria-hidden="true" /></div>
          {!part?.link && <p className="player-notice">{t('player.processing')}</p>}
          {waiting && !paused && <div className="player-spinner" role="status" aria-label={t('player.buffering')} />}
          {paused && part?.link && (
            <button type="button" className="player-big-play" aria-label={t('player.play')} onClick={togglePlay}><Icon name="play" size={36} /></button>
          )}
          {statsOpen && stats && <StatsPanel t={t} stats={stats} onClose={() => setStatsOpen(false)} />}
          <div className="player-controls" onPointerUp={(e) => { e.stopPropagation(); showControls(); }}>
            <SeekBar currentTime={time} duration={duration} buffered={buffered} danmaku={danmaku} storyboard={part?.storyboard ?? null} label={t('player.seek')} onSeek={seek} />
            <div className="controls-row">
              <div className="controls-left">
                <button type="button" className="ctl" onClick={togglePlay} aria-label={paused ? t('player.play') : t('player.pause')} data-play-button>
                  <Icon name={paused ? 'play' : 'pause'} />
                </button>
                {c.showStop && <button type="button" className="ctl" aria-label={t('player.stop')} onClick={() => { video().pause(); seek(0, false); }}><Icon name="stop" /></button>}
                {c.showReplay && <button type="button" className="ctl" aria-label={t('player.replay')} onClick={() => { seek(0, false); void video().play(); }}><Icon name="replay" /></button>}
                {c.showFrameByFrame && (
                  <>
                    <button type="button" className="ctl" aria-label={t('player.previousFrame')} onClick={() => step(-1)}><Icon name="prevFrame" /></button>
                    <button type="button" className="ctl" aria-label={t('player.nextFrame')} onClick={() => step(1)}><Icon name="nextFrame" /></button>
                  </>
                )}
                <button type="button" className="player-time" onClick={() => updatePlayerSettings('countdown', !settings.countdown)}
                  title={settings.countdown ? t('player.showElapsed') : t('player.showCountdown')} data-player-time>
                  <span>{shownTime}</span> / <span>{formatTimecode(duration)}</span>
                </button>
              </div>
              <div className="controls-right">
                {levels.length > 0 && (
                  <div className="ctl-wrap">
                    <button type="button" className="ctl text" aria-haspopup="menu" aria-expanded={panel === 'quality'} onClick={() => toggle('quality')} data-quality-button>
                      {autoQuality ? t('player.auto') : playingLevel ? `${playingLevel.height}p` : `${settings.quality.preferred}p`}
                    </button>
                    {panel === 'quality' && <QualityMenu t={t} levels={levels} auto={autoQuality} playing={playingLevel} onPick={pickQuality} />}
                  </div>
                )}
                <div className="ctl-wrap">
                  <button type="button" className="ctl text" aria-haspopup="menu" aria-expanded={panel === 'rate'} onClick={() => toggle('rate')} data-rate-button>
                    {rate === 1 ? t('player.rate') : `${Number(rate.toFixed(2))}×`}
                  </button>
                  {panel === 'rate' && <RateMenu t={t} rate={rate} continuous={settings.rate.continuousControl} onRate={changeRate} />}
                </div>
                <button type="button" className="ctl" aria-pressed={settings.danmaku.enabled} aria-label={t('player.toggleDanmaku')} title={t('player.toggleDanmaku')}
                  onClick={() => updatePlayerSettings('danmaku', { enabled: !settings.danmaku.enabled })} data-danmaku-toggle>
                  <Icon name={settings.danmaku.enabled ? 'danmakuOn' : 'danmakuOff'} />
                </button>
                <div className="ctl-wrap">
                  <button type="button" className="ctl" aria-expanded={panel === 'danmaku'} aria-label={t('player.danmakuSettings')} title={t('player.danmakuSettings')}
                    onClick={() => toggle('danmaku')} data-danmaku-settings-button>
                    <Icon name="danmakuSettings" />
                  </button>
                  {panel === 'danmaku' && <DanmakuSettings t={t} value={settings.danmaku} onChange={(change) => updatePlayerSettings('danmaku', change)} />}
                </div>
                <div className="ctl-wrap volume-wrap" onPointerEnter={(e) => e.pointerType === 'mouse' && setPanel('volume')} onPointerLeave={() => panel === 'volume' && setPanel(null)}>
                  <button type="button" className="ctl" aria-label={settings.audio.muted ? t('player.unmute') : t('player.mute')} aria-pressed={settings.audio.muted}
                    onClick={() => updatePlayerSettings('audio', { muted: !settings.audio.muted, volume: settings.audio.volume || 0.5 })} data-mute-button>
                    <Icon name={volumeShown === 0 ? 'muted' : 'volume'} />
                  </button>
                  {panel === 'volume' && <VolumeSlider t={t} volume={settings.audio.volume} muted={settings.audio.muted} onVolume={setVolume} />}
                </div>
                <div className="ctl-wrap">
                  <button type="button" className="ctl" aria-expanded={panel === 'settings'} aria-label={t('player.settings')} title={t('player.settings')} onClick={() => toggle('settings')} data-settings-button>
                    <Icon name="gear" />
                  </button>
                  {panel === 'settings' && (
                    <PlaybackSettings t={t} settings={settings} onStats={() => { setStatsOpen(true); setPanel(null); }}
                      onToggle={(key, value) => {
                        if (key === 'autoplay' || key === 'loop') updatePlayerSettings(key, value);
                        else if (key === 'preservesPitch' || key === 'continuousControl') updatePlayerSettings('rate', { [key]: value });
                        else updatePlayerSettings('controller', { [key]: value });
                      }} />
                  )}
                </div>
                <button type="button" className="ctl optional" aria-label={t('player.screenshot')} title={t('player.screenshot')}
                  disabled={shotBusy} aria-busy={shotBusy} onClick={() => void screenshot()} data-screenshot><Icon name="camera" /></button>
                <button type="button" className="ctl optional" aria-pressed={pictureInPicture} aria-label={t('player.pip')} title={t('player.pip')} onClick={() => void togglePip()} data-pip-button>
                  <Icon name="pip" />
                </button>
                <button type="button" className="ctl" aria-pressed={webFullscreen} aria-label={t('player.webFullscreen')} title={t('player.webFullscreen')}
                  onClick={() => setWebFullscreen(!webFullscreen)} data-web-fullscreen-button>
                  <Icon name="webFullscreen" />
                </button>
                <button type="button" className="ctl" aria-label={fullscreen ? t('player.exitFullscreen') : t('player.fullscreen')} title={t('player.fullscreen')} onClick={toggleFullscreen} data-fullscreen-button>
                  <Icon name={fullscreen ? 'exitFullscreen' : 'fullscreen'} />
                </button>
              </div>
            </div>
          </div>
        </div>
        <div className="player-bar">
          <span className="player-bar-count">{t('player.danmakuCount', { count: danmaku.length })}</span>
          <DanmakuSender t={t} loggedIn={member} onLogin={openLogin} onSend={send} />
          <button type="button" className="ctl list-toggle" aria-pressed={listOpen} aria-label={t('player.danmakuList')} title={t('player.danmakuList')} onClick={() => setListOpen(!listOpen)} data-list-toggle>
            <Icon name="list" />
          </button>
        </div>
      </div>
      {parts.length > 1 && (
        <nav className="player-parts" aria-label={t('player.parts')}>
          {parts.map((p, i) => (
            <button key={p.id} type="button" aria-current={i === partIndex} onClick={() => setPartIndex(i)}>P{i + 1} {p.title}</button>
          ))}
        </nav>
      )}
      {listOpen && <DanmakuListPanel t={t} locale={locale} list={danmaku} onJump={(at) => seek(at)} onClose={() => setListOpen(false)} />}
    </div>
  );
}
