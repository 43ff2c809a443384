import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent as ReactKeyboardEvent,
  type PointerEvent,
} from 'react';
import { useStartTime } from '../use-start-time.ts';
import type { AudioDetail } from '../../lib/api/contracts/audio.ts';
import type { Danmaku } from '../../lib/api/contracts/interaction.ts';
import { countAudioPlay, emitDanmaku, getDanmaku } from '../../lib/api/index.ts';
import { attachHls, type HlsSource } from '../../lib/player/hls-source.ts';
import {
  AUDIO_RATES,
  DANMAKU_FLIGHT_SECONDS,
  inFlight,
  normalisationGain,
  timeAtX,
} from '../../lib/player/audio-logic.ts';
import { formatClock } from '../../lib/catalogue/format.ts';
import { localizePath, type Locale } from '../../lib/i18n/locales.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import { showToast } from '../../lib/stores/toast.ts';
import { updatePlayerSettings } from '../../lib/stores/player-settings.ts';
import { danmakuFilter } from '../../lib/danmaku/filter.ts';
import { usePlayerSettings } from '../player/use-player-settings.ts';
import { useDanmakuBlocking } from '../player/use-danmaku-blocking.ts';
import { useHistoryReporting } from '../player/use-history-reporting.ts';
import { toastSendRefusal } from '../player/danmaku-refusal.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useSelfUser } from '../use-self-user.ts';
import { AUDIO_PLAYER_IMAGE_SIZES } from '../../lib/catalogue/poster.ts';
import { PosterImage } from '../../components/PosterImage.tsx';
import './audio.css';
import '../../styles/danmaku-sender.css';

type Track = Pick<
  AudioDetail,
  | 'audioId'
  | 'title'
  | 'artist'
  | 'cover'
  | 'duration'
  | 'manifestUrl'
  | 'waveform'
  | 'loudness'
  | 'queue'
  | 'uploaderNickname'
  | 'uploader'
>;

const NORMALISE_KEY = 'kiraboshi.audio.normalise';
const SEEK_STEP_S = 5;
/** Lanes the danmaku fly in over the waveform, all of them when the settings' area is whole. */
const LANES = 4;

/** The video player's danmaku settings panel, loaded when the listener opens it. */
const DanmakuSettings = lazy(() => import('../player/DanmakuSettings.tsx'));

/** Paints the waveform: played part in the accent colour, the rest muted, danmaku moments as ticks. */
function paint(canvas: HTMLCanvasElement, peaks: readonly number[], playedFraction: number, marks: readonly number[]) {
  const ratio = window.devicePixelRatio || 1;
  const { clientWidth: w, clientHeight: h } = canvas;
  if (canvas.width !== Math.round(w * ratio)) canvas.width = Math.round(w * ratio);
  if (canvas.height !== Math.round(h * ratio)) canvas.height = Math.round(h * ratio);
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, w, h);
  const style = getComputedStyle(canvas);
  const played = style.getPropertyValue('--wave-played').trim() || '#e85d9a';
  const rest = style.getPropertyValue('--wave-rest').trim() || '#8a8fa3';
  const bars = Math.max(1, Math.min(peaks.length, Math.floor(w / 3)));
  const per = peaks.length / bars;
  // Drawn to the track's own peak: a quiet recording fills the height as a loud one does.
  const loudest = peaks.reduce((top, level) => Math.max(top, level), 0);
  const scale = loudest > 0.001 ? 1 / loudest : 1;
  for (let i = 0; i < bars; i++) {
    let level = 0;
    for (let j = Math.floor(i * per); j < Math.floor((i + 1) * per); j++) level = Math.max(level, peaks[j] ?? 0);
    const barHeight = Math.max(2, Math.min(1, level * scale) * (h - 8));
    ctx.fillStyle = i / bars < playedFraction ? played : rest;
    ctx.fillRect(i * (w / bars), (h - barHeight) / 2, Math.max(1, w / bars - 1), barHeight);
  }
  ctx.fillStyle = played;
  for (const mark of marks) ctx.fillRect(Math.round(mark * w), h - 4, 2, 4);
}

/**
 * /audio/ka{id}: the track's player. The waveform is the seek bar (pointer and keyboard), with
 * danmaku flying over it at their moments; speed, repeat, loudness normalisation (Web Audio
 * gain from the measured EBU R128 loudness), volume, the uploader's next track, keyboard
 * shortcuts, and Media Session metadata and actions (lock-screen controls; playback goes on in
 * the background as audio does). Built from the video player's parts: its settings (volume,
 * repeat and the danmaku display, kept in one store for both players), its danmaku settings
 * panel and blocking, its refusal notices, and its history (resume, and the position written).
 */
export default function AudioPlayer({ locale, messages, track }: { locale: Locale; messages: Messages; track: Track }) {
  const translate = useIslandTranslation(locale, messages);
  const t = useCallback(
    (key: string, options?: Record<string, unknown>) => String(translate(key, options as never)),
    [translate],
  );
  const self = useSelfUser();
  const audio = useRef<HTMLAudioElement>(null);
  useStartTime(audio);
  const canvas = useRef<HTMLCanvasElement>(null);
  const source = useRef<HlsSource | null>(null);
  const graph = useRef<{ context: AudioContext; gain: GainNode } | null>(null);
  const counted = useRef(false);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [rate, setRate] = useState(1);
  const settings = usePlayerSettings();
  const { loop } = settings;
  const volume = settings.audio.muted ? 0 : settings.audio.volume;
  const setVolume = (level: number) =>
    updatePlayerSettings('audio', { volume: Math.min(1, Math.max(0, level)), muted: level <= 0 });
  const [panelOpen, setPanelOpen] = useState(false);
  const [normalise, setNormalise] = useState(true);
  const [danmaku, setDanmaku] = useState<Danmaku[]>([]);
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const duration = track.duration / 1000;
  const blocking = useDanmakuBlocking(settings, self.isLogined);
  const shown = useMemo(() => danmaku.filter(danmakuFilter(blocking)), [danmaku, blocking]);
  useHistoryReporting(
    audio,
    { type: 'audio', id: track.audioId },
    { offset: 0, length: duration, last: true },
    self.isLogined,
    t,
  );
  const next = track.queue[0] ?? null;
  const nextHref = next ? localizePath(`/audio/ka${next.audioId}`, locale) : null;

  useEffect(() => {
    setNormalise(localStorage.getItem(NORMALISE_KEY) !== 'off');
    const element = audio.current;
    if (!element) return;
    let cancelled = false;
    void attachHls(element, track.manifestUrl, {
      onFatal: () => showToast({ message: t('audio.player.failed'), severity: 'error' }),
    }).then((s) => {
      if (cancelled) return s.destroy();
      source.current = s;
      if (new URLSearchParams(location.search).has('autoplay')) void element.play().catch(() => {});
    });
    void getDanmaku(track.audioId, undefined, 'audio').then(
      (answer) => !cancelled && setDanmaku(answer.danmaku),
      () => {},
    );
    return () => {
      cancelled = true;
      source.current?.destroy();
    };
  }, [track.audioId, track.manifestUrl]);

  // Normalisation goes through a gain node, made at the first play (browsers allow audio then).
  const applyGain = useCallback(
    (on: boolean) => {
      if (graph.current) graph.current.gain.gain.value = on ? normalisationGain(track.loudness) : 1;
    },
    [track.loudness],
  );
  useEffect(() => applyGain(normalise), [normalise, applyGain]);
  const ensureGraph = () => {
    if (graph.current || !audio.current || typeof AudioContext === 'undefined') return;
    const context = new AudioContext();
    const gain = context.createGain();
    context.createMediaElementSource(audio.current).connect(gain).connect(context.destination);
    graph.current = { context, gain };
    applyGain(normalise);
  };

  const toggle = useCallback(() => {
    const element = audio.current;
    if (!element) return;
    if (element.paused) {
      ensureGraph();
      void graph.current?.context.resume();
      void element.play().catch(() => {});
    } else element.pause();
  }, [normalise]);
  const seekTo = useCallback(
    (seconds: number) => {
      if (audio.current) audio.current.currentTime = Math.max(0, Math.min(duration, seconds));
    },
    [duration],
  );

  useEffect(() => {
    const element = audio.current;
    if (element) {
      element.playbackRate = rate;
      element.loop = loop;
      element.volume = volume;
    }
  }, [rate, loop, volume]);

  // Media Session: lock-screen and headset controls, with the track's cover.
  useEffect(() => {
    if (!('mediaSession' in navigator)) return;
    navigator.mediaSession.metadata = new MediaMetadata({
      title: track.title,
      artist: track.artist || track.uploaderNickname || track.uploader,
      album: 'Kiraboshi',
      artwork: track.cover ? [{ src: track.cover, sizes: '512x512', type: 'image/jpeg' }] : [],
    });
    const handlers: Array<[MediaSessionAction, MediaSessionActionHandler | null]> = [
      [
        'play',
        () => {
          if (audio.current?.paused) toggle();
        },
      ],
      ['pause', () => audio.current?.pause()],
      ['seekbackward', (d) => seekTo((audio.current?.currentTime ?? 0) - (d.seekOffset ?? SEEK_STEP_S))],
      ['seekforward', (d) => seekTo((audio.current?.currentTime ?? 0) + (d.seekOffset ?? SEEK_STEP_S))],
      ['seekto', (d) => d.seekTime !== undefined && seekTo(d.seekTime)],
      ['previoustrack', () => seekTo(0)],
      ['nexttrack', nextHref ? () => location.assign(`${nextHref}?autoplay`) : null],
    ];
    for (const [action, handler] of handlers) {
      try {
        navigator.mediaSession.setActionHandler(action, handler);
      } catch {
        // an action this browser does not know
      }
    }
  }, [track, toggle, seekTo, nextHref]);

  // Keyboard shortcuts anywhere on the page, but not while typing.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (e.ctrlKey || e.metaKey || e.altKey || target?.closest('input, textarea, select, [contenteditable="true"]'))
        return;
      const element = audio.current;
      if (!element) return;
      const actions: Record<string, () => void> = {
        ' ': toggle,
        k: toggle,
        ArrowLeft: () => seekTo(element.currentTime - SEEK_STEP_S),
        ArrowRight: () => seekTo(element.currentTime + SEEK_STEP_S),
        ArrowUp: () => setVolume(+(volume + 0.1).toFixed(2)),
        ArrowDown: () => setVolume(+(volume - 0.1).toFixed(2)),
        l: () => updatePlayerSettings('loop', !loop),
        m: () => updatePlayerSettings('audio', { muted: volume > 0, volume: settings.audio.volume || 1 }),
        n: () => nextHref && location.assign(`${nextHref}?autoplay`),
      };
      const action = actions[e.key.length === 1 ? e.key.toLowerCase() : e.key];
      if (!action || (target?.closest('[role="slider"]') && e.key.startsWith('Arrow'))) return;
      e.preventDefault();
      action();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [toggle, seekTo, nextHref, volume, loop]);

  const marks = danmaku.map((d) => d.time / Math.max(1, duration));
  useEffect(() => {
    const draw = () => canvas.current && paint(canvas.current, track.waveform, time / Math.max(1, duration), marks);
    draw();
    addEventListener('resize', draw);
    return () => removeEventListener('resize', draw);
  }, [time, duration, track.waveform, danmaku]);

  const seekFromPointer = (e: PointerEvent<HTMLCanvasElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    seekTo(timeAtX(e.clientX - box.left, box.width, duration));
  };
  const onSliderKey = (e: ReactKeyboardEvent) => {
    const steps: Record<string, number> = {
      ArrowLeft: -SEEK_STEP_S,
      ArrowRight: SEEK_STEP_S,
      PageDown: -30,
      PageUp: 30,
    };
    if (e.key in steps) seekTo(time + steps[e.key]);
    else if (e.key === 'Home') seekTo(0);
    else if (e.key === 'End') seekTo(duration);
    else return;
    e.preventDefault();
  };

  const send = async (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim() || sending) return;
    setSending(true);
    try {
      const { danmaku: sent } = await emitDanmaku({
        videoId: track.audioId,
        mediaType: 'audio',
        time: audio.current?.currentTime ?? 0,
        text,
        color: 'ffffff',
      });
      setDanmaku((all) => [...all, sent].sort((a, b) => a.time - b.time));
      setText('');
    } catch (error) {
      toastSendRefusal(error, t('audio.player.sendFailed'));
    } finally {
      setSending(false);
    }
  };

  const look = settings.danmaku;
  const flight = DANMAKU_FLIGHT_SECONDS / look.speed;
  const lanes = Math.max(1, Math.round(LANES * look.area));
  const flying = look.enabled ? inFlight(shown, time, flight) : [];
  return (
    <section className="card audio-player" data-audio-player={track.audioId}>
      <div className="audio-head">
        {track.cover ? (
          <PosterImage
            className="audio-cover"
            image={track.cover}
            loading="high"
            sizes={AUDIO_PLAYER_IMAGE_SIZES}
            width={160}
            height={160}
          />
        ) : (
          <span className="audio-cover audio-cover-empty" aria-hidden="true">
            ♪
          </span>
        )}
        <div className="audio-controls">
          <button
            type="button"
            className="button audio-play"
            onClick={toggle}
            aria-label={playing ? t('audio.player.pause') : t('audio.player.play')}
            data-play
          >
            <span aria-hidden="true">{playing ? '❚❚' : '▶'}</span>
          </button>
          <span className="audio-clock" data-clock>
            {formatClock(time)} / {formatClock(duration)}
          </span>
          <label className="audio-option">
            {t('audio.player.rate')}
            <select value={rate} onChange={(e) => setRate(Number(e.target.value))} data-rate>
              {AUDIO_RATES.map((r) => (
                <option key={r} value={r}>
                  {r}×
                </option>
              ))}
            </select>
          </label>
          <label className="audio-option check">
            <input
              type="checkbox"
              checked={loop}
              onChange={(e) => updatePlayerSettings('loop', e.target.checked)}
              data-loop
            />{' '}
            {t('audio.player.loop')}
          </label>
          <label
            className="audio-option check"
            title={
              track.loudness
                ? t('audio.player.loudness', { lufs: track.loudness.integratedLufs.toFixed(1) })
                : undefined
            }
          >
            <input
              type="checkbox"
              checked={normalise}
              data-normalise
              onChange={(e) => {
                setNormalise(e.target.checked);
                localStorage.setItem(NORMALISE_KEY, e.target.checked ? 'on' : 'off');
              }}
            />{' '}
            {t('audio.player.normalise')}
          </label>
          <label className="audio-option">
            {t('audio.player.volume')}
            <input
              type="range"
              min="0"
              max="1"
              step="0.05"
              value={volume}
              onChange={(e) => setVolume(Number(e.target.value))}
              data-volume
            />
          </label>
          <label className="audio-option check">
            <input
              type="checkbox"
              checked={look.enabled}
              onChange={(e) => updatePlayerSettings('danmaku', { enabled: e.target.checked })}
              data-danmaku-toggle
            />{' '}
            {t('player.toggleDanmaku')}
          </label>
          <button
            type="button"
            className="button secondary"
            aria-expanded={panelOpen}
            onClick={() => setPanelOpen(!panelOpen)}
            data-danmaku-settings-button
          >
            {t('player.danmakuSettings')}
          </button>
          {nextHref && (
            <a className="button secondary" href={`${nextHref}?autoplay`} data-next>
              {t('audio.player.next')}
            </a>
          )}
        </div>
      </div>
      {panelOpen && (
        <Suspense fallback={null}>
          <DanmakuSettings
            t={t}
            value={look}
            hasSubtitles={false}
            onChange={(change) => updatePlayerSettings('danmaku', change)}
          />
        </Suspense>
      )}
      <div className="audio-wave">
        <canvas
          ref={canvas}
          className="audio-waveform"
          role="slider"
          tabIndex={0}
          aria-label={t('audio.player.seek')}
          aria-valuemin={0}
          aria-valuemax={Math.round(duration)}
          aria-valuenow={Math.round(time)}
          aria-valuetext={formatClock(time)}
          onPointerDown={(e) => {
            e.currentTarget.setPointerCapture(e.pointerId);
            seekFromPointer(e);
          }}
          onPointerMove={(e) => e.buttons === 1 && seekFromPointer(e)}
          onKeyDown={onSliderKey}
          data-waveform
        />
        <div className="audio-danmaku" aria-live="off" data-danmaku-layer>
          {flying.map((d, i) => (
            <span
              key={d.id}
              className="audio-danmaku-item"
              data-danmaku={d.id}
              style={{
                color: `#${d.color}`,
                top: `${(i % lanes) * 24 + 4}px`,
                animationDuration: `${flight / rate}s`,
                opacity: look.opacity,
                fontSize: `${look.fontSizeScale}em`,
              }}
            >
              {d.text}
            </span>
          ))}
        </div>
      </div>
      {self.isLogined ? (
        <form className="audio-danmaku-form danmaku-sender" onSubmit={send}>
          <input
            className="danmaku-input"
            value={text}
            maxLength={100}
            onChange={(e) => setText(e.target.value)}
            placeholder={t('audio.player.danmakuPlaceholder')}
            aria-label={t('audio.player.danmakuPlaceholder')}
            data-danmaku-input
          />
          <button type="submit" className="btn" disabled={sending || !text.trim()} data-danmaku-send>
            {t('audio.player.send')}
          </button>
        </form>
      ) : (
        self.isEffectiveCheckOnce && <p className="field-hint">{t('audio.player.loginToSend')}</p>
      )}
      <p className="field-hint audio-shortcuts">{t('audio.player.shortcuts')}</p>
      <audio
        ref={audio}
        preload="metadata"
        onPlay={() => {
          setPlaying(true);
          if (!counted.current) {
            counted.current = true;
            void countAudioPlay(track.audioId).catch(() => {});
          }
        }}
        onPause={() => setPlaying(false)}
        onTimeUpdate={(e) => setTime(e.currentTarget.currentTime)}
        onEnded={() => {
          if (!loop && nextHref) location.assign(`${nextHref}?autoplay`);
        }}
        data-audio
      />
      {track.queue.length > 0 && (
        <nav className="audio-queue" aria-label={t('audio.player.queue')}>
          <h2>{t('audio.player.queue')}</h2>
          <ol>
            {track.queue.slice(0, 5).map((q) => (
              <li key={q.audioId}>
                <a href={localizePath(`/audio/ka${q.audioId}`, locale)}>{q.title}</a>{' '}
                <span className="field-hint">{formatClock(q.duration / 1000)}</span>
              </li>
            ))}
          </ol>
        </nav>
      )}
    </section>
  );
}
