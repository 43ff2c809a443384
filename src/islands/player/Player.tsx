/**
 * The video player island: the video (hls.js loaded when the viewer means to play, only where MSE exists),
 * danmaku drawn on a canvas on the video's clock, the control bar and its menus, the sender
 * bar and the danmaku list. Its state is one reducer (src/lib/player/player-state.ts); the
 * use-*.ts hooks beside it connect that state to the element, the stream, the danmaku overlay,
 * the keyboard and watch history; the logic itself lives in src/lib.
 */
import { useOnline } from '../use-online.ts';
import { lazy, Suspense, useCallback, useMemo, useReducer, useRef, useState } from 'react';
import type { PlayerPart } from '../../lib/player/parts.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import {
  initialPlayerState,
  playerClasses,
  playerReducer,
  levelPlaying,
  timeShown,
  type Panel,
} from '../../lib/player/player-state.ts';
import type { QualityLevel } from '../../lib/player/quality.ts';
import { audioForVolume, formatTimecode } from '../../lib/player/shortcuts.ts';
import { volumeIsAdjustable } from '../../lib/player/device.ts';
import { updatePlayerSettings } from '../../lib/stores/player-settings.ts';
import { showToast } from '../../lib/stores/toast.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useSelfUser } from '../use-self-user.ts';
import { useDismiss } from '../use-dismiss.ts';
import { useStartTime } from '../use-start-time.ts';
import { usePlayerSettings } from './use-player-settings.ts';
import { useHlsSource } from './use-hls-source.ts';
import { useDanmakuOverlay } from './use-danmaku-overlay.ts';
import { useLiveDanmaku } from './use-live-danmaku.ts';
import { useMediaElement } from './use-media-element.ts';
import { useHistoryReporting } from './use-history-reporting.ts';
import { useFullscreen } from './use-fullscreen.ts';
import { usePlaybackStats } from './use-playback-stats.ts';
import { useScreenshot } from './use-screenshot.ts';
import { usePlayerShortcuts } from './use-player-shortcuts.ts';
import { useControlsVisibility } from './use-controls-visibility.ts';
import { partAt, partSpan, usePartAddress } from './use-part-address.ts';
import { partStreamUrl } from '../../lib/player/parts.ts';
import { publicConfig } from '../../lib/public-config.ts';
import PartList from './PartList.tsx';
import { Icon } from './icons.tsx';
import SeekBar from './SeekBar.tsx';
import DanmakuSender from './DanmakuSender.tsx';
import DanmakuSettings from './DanmakuSettings.tsx';
import { PlaybackSettings, QualityMenu, RateMenu, SubtitleMenu, VolumeSlider, trackName } from './PlayerMenus.tsx';
import { useSubtitles } from './use-subtitles.ts';
import { LOCALE_INFO, type Locale } from '../../lib/i18n/locales.ts';

// Panels that start closed, each a chunk of its own fetched when first opened: the danmaku list
// (with its report menu) and the statistics, which most viewers never open.
const DanmakuListPanel = lazy(() => import('./DanmakuListPanel.tsx'));
const StatsPanel = lazy(() => import('./StatsPanel.tsx'));

export type { PlayerPart } from '../../lib/player/parts.ts';
interface Props {
  locale: Locale;
  messages: Messages;
  videoId: number;
  title: string;
  parts: PlayerPart[];
  /** The part the address asked for (?p=2 → 1), already checked against the parts by the page. */
  initialPart?: number;
}

const openLogin = () => void import('../auth/open-auth-dialog.ts').then((m) => m.openAuthDialog('login'));

export default function Player({ locale, messages, videoId, title, parts, initialPart = 0 }: Props) {
  const translate = useIslandTranslation(locale, messages);
  const t = useCallback(
    (key: string, options?: Record<string, unknown>) => String(translate(key, options as never)),
    [translate],
  );
  const settings = usePlayerSettings();
  const self = useSelfUser();
  const member = self.isLogined && !!self.userInfo;
  const [state, dispatch] = useReducer(playerReducer, initialPart, (partIndex) => ({
    ...initialPlayerState,
    partIndex,
  }));
  const part = parts[state.partIndex];
  const span = useMemo(() => partSpan(parts, state.partIndex), [parts, state.partIndex]);

  const root = useRef<HTMLDivElement>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const subtitleLayer = useRef<HTMLDivElement>(null);
  const selectPart = usePartAddress(videoRef, parts.length, state.partIndex, dispatch);

  const online = useOnline();
  const stream = partStreamUrl(publicConfig, videoId, state.partIndex, part?.link);
  const source = useHlsSource(videoRef, root, stream, dispatch, () =>
    showToast({ message: t(navigator.onLine ? 'player.playbackFailed' : 'player.needsConnection'), severity: 'error' }),
  );
  const { overlay, send } = useDanmakuOverlay(videoRef, canvasRef, { videoId, span, settings, member, dispatch, t });
  const watching = useLiveDanmaku(videoRef, overlay, videoId);
  const media = useMediaElement(videoRef, { videoId, link: stream, settings, source, dispatch });
  // Opened without ?p, the page goes to the part the member was watching (once, as Bilibili does);
  // not when coming back to it (back, forward, reload): that entry meant the part it shows.
  // A shared link's moment (?t=) in the part it opened: set before the remembered position, which then leaves it.
  useStartTime(videoRef, state.partIndex === initialPart);
  const followHistory = useRef(true);
  useHistoryReporting(videoRef, { type: 'video', id: videoId }, span, member, t, (anchor) => {
    const arrival =
      (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.type ?? 'navigate';
    if (
      !followHistory.current ||
      arrival !== 'navigate' ||
      new URLSearchParams(location.search).has('p') ||
      new URLSearchParams(location.search).has('t')
    )
      return;
    followHistory.current = false;
    selectPart(partAt(parts, anchor), true);
  });
  const { toggleFullscreen, togglePip } = useFullscreen(root, videoRef, state.webFullscreen, dispatch, t);
  const stats = usePlaybackStats(state.statsOpen, videoRef, source, overlay);
  // The control bar's menus close as every popover does: Esc, or a press outside the bar.
  const controlsBar = useRef<HTMLDivElement>(null);
  const subtitles = useSubtitles(subtitleLayer, videoRef, {
    videoId,
    partIndex: state.partIndex,
    locale,
    overlay,
    controls: controlsBar,
    t,
  });
  const { showControls, stage } = useControlsVisibility(videoRef, state, dispatch, {
    togglePlay: media.togglePlay,
    toggleFullscreen,
  });
  usePlayerShortcuts(videoRef, state, dispatch, {
    ...media,
    toggleFullscreen,
    showControls,
    toggleSubtitles: subtitles.toggle,
  });
  const shot = useScreenshot(videoRef, source, { link: stream, title, videoId, t });

  const {
    paused,
    waiting,
    time,
    duration: mediaDuration,
    buffered,
    rate,
    levels,
    panel,
    danmaku,
    fullscreen,
    webFullscreen,
    pictureInPicture,
    listOpen,
  } = state;
  // Nothing loads before play (media-loading.ts): until then the part's known length is shown.
  const duration = mediaDuration || (part?.duration ?? 0) / 1000;
  const { togglePlay, seek, changeRate, step } = media;
  const setVolume = (volume: number) => updatePlayerSettings('audio', audioForVolume(volume));
  const toggleMute = () =>
    updatePlayerSettings('audio', { muted: !settings.audio.muted, volume: settings.audio.volume || 0.5 });
  /** How the volume button is being pressed ('touch', 'mouse', 'pen'; '' from the keyboard). */
  const volumePointer = useRef('');
  /** The volume panel was opened by a finger: the touch layout, with its own mute button. */
  const [volumeByTouch, setVolumeByTouch] = useState(false);
  const onVolumeButton = () => {
    const touch = volumePointer.current === 'touch';
    volumePointer.current = '';
    if (!touch) return toggleMute();
    setVolumeByTouch(true);
    toggle('volume');
  };
  const volumeAdjustable = useMemo(() => typeof document === 'undefined' || volumeIsAdjustable(), []);
  const pickQuality = (level: QualityLevel | null) => {
    source.current?.setLevel(level ? level.index : -1);
    updatePlayerSettings('quality', level ? { auto: false, preferred: level.height } : { auto: true });
    dispatch({ type: 'qualityPicked', index: level ? level.index : null });
  };
  const toggle = (key: Exclude<Panel, null>) => dispatch({ type: 'togglePanel', panel: key });
  const setPanel = (key: Panel) => dispatch({ type: 'panel', panel: key });
  useDismiss(panel !== null, controlsBar, () => setPanel(null));
  const playingLevel = levelPlaying(state);
  const autoQuality = settings.quality.auto;
  const volumeShown = settings.audio.muted ? 0 : settings.audio.volume;
  const c = settings.controller;
  const lang = LOCALE_INFO[locale].htmlLang;

  return (
    <div
      className={playerClasses(state)}
      data-player
      data-source={state.sourceKind}
      data-level={playingLevel?.height ?? ''}
      data-levels={levels.map((l) => l.height).join(',')}
      data-quality={autoQuality ? 'auto' : String(settings.quality.preferred)}
    >
      <div className="player-main" ref={root}>
        <div className="player-stage" {...stage}>
          <video
            ref={videoRef}
            playsInline
            preload="none"
            poster={part?.poster ?? undefined}
            crossOrigin="anonymous"
            aria-label={title}
            data-video
          />
          <div className="danmaku-layer">
            <canvas ref={canvasRef} data-danmaku-stage aria-hidden="true" />
          </div>
          <div className="subtitle-layer" ref={subtitleLayer} lang={subtitles.current?.language} data-subtitle-layer />
          {!part?.link && <p className="player-notice">{t('player.processing')}</p>}
          {!online && part?.link && (
            <p className="player-notice" role="status" data-player-offline>
              {t('player.needsConnection')}
            </p>
          )}
          {waiting && !paused && <div className="player-spinner" role="status" aria-label={t('player.buffering')} />}
          {paused && part?.link && (
            <button type="button" className="player-big-play" aria-label={t('player.play')} onClick={togglePlay}>
              <Icon name="play" size={36} />
            </button>
          )}
          {state.statsOpen && stats && (
            <Suspense fallback={null}>
              <StatsPanel t={t} stats={stats} onClose={() => dispatch({ type: 'stats', open: false })} />
            </Suspense>
          )}
          <div
            className="player-controls"
            ref={controlsBar}
            onPointerUp={(e) => {
              e.stopPropagation();
              showControls();
            }}
          >
            <SeekBar
              currentTime={time}
              duration={duration}
              buffered={buffered}
              danmaku={danmaku}
              storyboard={part?.storyboard ?? null}
              label={t('player.seek')}
              onSeek={seek}
            />
            <div className="controls-row">
              <div className="controls-left">
                <button
                  type="button"
                  className="ctl"
                  onClick={togglePlay}
                  aria-label={paused ? t('player.play') : t('player.pause')}
                  data-play-button
                >
                  <Icon name={paused ? 'play' : 'pause'} />
                </button>
                {c.showStop && (
                  <button type="button" className="ctl" aria-label={t('player.stop')} onClick={media.stop}>
                    <Icon name="stop" />
                  </button>
                )}
                {c.showReplay && (
                  <button type="button" className="ctl" aria-label={t('player.replay')} onClick={media.replay}>
                    <Icon name="replay" />
                  </button>
                )}
                {c.showFrameByFrame && (
                  <>
                    <button
                      type="button"
                      className="ctl"
                      aria-label={t('player.previousFrame')}
                      onClick={() => step(-1)}
                    >
                      <Icon name="prevFrame" />
                    </button>
                    <button type="button" className="ctl" aria-label={t('player.nextFrame')} onClick={() => step(1)}>
                      <Icon name="nextFrame" />
                    </button>
                  </>
                )}
                <button
                  type="button"
                  className="player-time"
                  onClick={() => updatePlayerSettings('countdown', !settings.countdown)}
                  title={settings.countdown ? t('player.showElapsed') : t('player.showCountdown')}
                  data-player-time
                >
                  <span>{timeShown(state, settings.countdown)}</span> / <span>{formatTimecode(duration)}</span>
                </button>
              </div>
              <div className="controls-right">
                {levels.length > 0 && (
                  <div className="ctl-wrap">
                    <button
                      type="button"
                      className="ctl text"
                      aria-haspopup="menu"
                      aria-expanded={panel === 'quality'}
                      onClick={() => toggle('quality')}
                      data-quality-button
                    >
                      {autoQuality
                        ? t('player.auto')
                        : playingLevel
                          ? `${playingLevel.height}p`
                          : `${settings.quality.preferred}p`}
                    </button>
                    {panel === 'quality' && (
                      <QualityMenu
                        t={t}
                        levels={levels}
                        auto={autoQuality}
                        playing={playingLevel}
                        onPick={pickQuality}
                      />
                    )}
                  </div>
                )}
                <div className="ctl-wrap">
                  <button
                    type="button"
                    className="ctl text"
                    aria-haspopup="menu"
                    aria-expanded={panel === 'rate'}
                    onClick={() => toggle('rate')}
                    data-rate-button
                  >
                    {rate === 1 ? t('player.rate') : `${Number(rate.toFixed(2))}×`}
                  </button>
                  {panel === 'rate' && (
                    <RateMenu t={t} rate={rate} continuous={settings.rate.continuousControl} onRate={changeRate} />
                  )}
                </div>
                {subtitles.tracks.length > 0 && (
                  <div className="ctl-wrap">
                    <button
                      type="button"
                      className="ctl subtitle-button"
                      aria-haspopup="menu"
                      aria-expanded={panel === 'subtitles'}
                      data-on={subtitles.current !== null}
                      aria-label={
                        subtitles.current
                          ? t('player.subtitles.buttonOn', { track: trackName(subtitles.current, lang) })
                          : t('player.subtitles.buttonOff')
                      }
                      title={t('player.subtitles.menu')}
                      onClick={() => {
                        if (panel !== 'subtitles') subtitles.menuOpened();
                        toggle('subtitles');
                      }}
                      data-subtitle-button
                    >
                      <Icon name={subtitles.current ? 'subtitlesOn' : 'subtitlesOff'} />
                    </button>
                    {panel === 'subtitles' && (
                      <SubtitleMenu
                        t={t}
                        lang={lang}
                        tracks={subtitles.tracks}
                        current={subtitles.current}
                        onPick={(track) => {
                          if (track) subtitles.prepare(track);
                          subtitles.choose(track);
                          setPanel(null);
                        }}
                        onIntent={subtitles.prepare}
                      />
                    )}
                  </div>
                )}
                <button
                  type="button"
                  className="ctl"
                  aria-pressed={settings.danmaku.enabled}
                  aria-label={t('player.toggleDanmaku')}
                  title={t('player.toggleDanmaku')}
                  onClick={() => updatePlayerSettings('danmaku', { enabled: !settings.danmaku.enabled })}
                  data-danmaku-toggle
                >
                  <Icon name={settings.danmaku.enabled ? 'danmakuOn' : 'danmakuOff'} />
                </button>
                <div className="ctl-wrap">
                  <button
                    type="button"
                    className="ctl"
                    aria-expanded={panel === 'danmaku'}
                    aria-label={t('player.danmakuSettings')}
                    title={t('player.danmakuSettings')}
                    onClick={() => toggle('danmaku')}
                    data-danmaku-settings-button
                  >
                    <Icon name="danmakuSettings" />
                  </button>
                  {panel === 'danmaku' && (
                    <DanmakuSettings
                      t={t}
                      value={settings.danmaku}
                      onChange={(change) => updatePlayerSettings('danmaku', change)}
                    />
                  )}
                </div>
                <div
                  className="ctl-wrap volume-wrap"
                  onPointerEnter={(e) => {
                    if (e.pointerType === 'mouse') {
                      setVolumeByTouch(false);
                      setPanel('volume');
                    }
                  }}
                  onPointerLeave={(e) =>
                    e.pointerType === 'mouse' && panel === 'volume' && !volumeByTouch && setPanel(null)
                  }
                >
                  {/* A click mutes; a finger's tap opens the volume panel (no hover on a phone to reach the slider). */}
                  <button
                    type="button"
                    className="ctl"
                    aria-label={settings.audio.muted ? t('player.unmute') : t('player.mute')}
                    aria-pressed={settings.audio.muted}
                    onPointerDown={(e) => {
                      volumePointer.current = e.pointerType;
                    }}
                    onClick={onVolumeButton}
                    data-mute-button
                  >
                    <Icon name={volumeShown === 0 ? 'muted' : 'volume'} />
                  </button>
                  {panel === 'volume' && (
                    <VolumeSlider
                      t={t}
                      volume={settings.audio.volume}
                      muted={settings.audio.muted}
                      onVolume={setVolume}
                      touch={volumeByTouch}
                      adjustable={volumeAdjustable}
                      onMute={toggleMute}
                    />
                  )}
                </div>
                <div className="ctl-wrap">
                  <button
                    type="button"
                    className="ctl"
                    aria-expanded={panel === 'settings'}
                    aria-label={t('player.settings')}
                    title={t('player.settings')}
                    onClick={() => toggle('settings')}
                    data-settings-button
                  >
                    <Icon name="gear" />
                  </button>
                  {panel === 'settings' && (
                    <PlaybackSettings
                      t={t}
                      settings={settings}
                      onStats={() => {
                        dispatch({ type: 'stats', open: true });
                        setPanel(null);
                      }}
                      onToggle={(key, value) => {
                        if (key === 'autoplay' || key === 'loop') updatePlayerSettings(key, value);
                        else if (key === 'preservesPitch' || key === 'continuousControl')
                          updatePlayerSettings('rate', { [key]: value });
                        else updatePlayerSettings('controller', { [key]: value });
                      }}
                    />
                  )}
                </div>
                <button
                  type="button"
                  className="ctl optional"
                  aria-label={t('player.screenshot')}
                  title={t('player.screenshot')}
                  disabled={shot.busy}
                  aria-busy={shot.busy}
                  onClick={() => void shot.shoot()}
                  data-screenshot
                >
                  <Icon name="camera" />
                </button>
                <button
                  type="button"
                  className="ctl optional"
                  aria-pressed={pictureInPicture}
                  aria-label={t('player.pip')}
                  title={t('player.pip')}
                  onClick={() => void togglePip()}
                  data-pip-button
                >
                  <Icon name="pip" />
                </button>
                <button
                  type="button"
                  className="ctl optional-touch"
                  aria-pressed={webFullscreen}
                  aria-label={t('player.webFullscreen')}
                  title={t('player.webFullscreen')}
                  onClick={() => dispatch({ type: 'webFullscreen', on: !webFullscreen })}
                  data-web-fullscreen-button
                >
                  <Icon name="webFullscreen" />
                </button>
                <button
                  type="button"
                  className="ctl"
                  aria-label={fullscreen ? t('player.exitFullscreen') : t('player.fullscreen')}
                  title={t('player.fullscreen')}
                  onClick={toggleFullscreen}
                  data-fullscreen-button
                >
                  <Icon name={fullscreen ? 'exitFullscreen' : 'fullscreen'} />
                </button>
              </div>
            </div>
          </div>
        </div>
        <div className="player-bar">
          <span className="player-bar-count">{t('player.danmakuCount', { count: danmaku.length })}</span>
          {watching !== null && (
            <span className="player-bar-watching" data-watching={watching}>
              {t('player.watching', { count: watching })}
            </span>
          )}
          <DanmakuSender t={t} loggedIn={member} onLogin={openLogin} onSend={send} />
          <button
            type="button"
            className="ctl list-toggle"
            aria-pressed={listOpen}
            aria-label={t('player.danmakuList')}
            title={t('player.danmakuList')}
            onClick={() => dispatch({ type: 'list', open: !listOpen })}
            data-list-toggle
          >
            <Icon name="list" />
          </button>
        </div>
      </div>
      {parts.length > 1 && (
        <PartList
          t={t}
          locale={locale}
          videoId={videoId}
          parts={parts}
          current={state.partIndex}
          onSelect={selectPart}
        />
      )}
      {listOpen && (
        <Suspense fallback={null}>
          <DanmakuListPanel
            t={t}
            locale={locale}
            list={danmaku}
            onJump={(at) => seek(at)}
            onClose={() => dispatch({ type: 'list', open: false })}
          />
        </Suspense>
      )}
    </div>
  );
}
