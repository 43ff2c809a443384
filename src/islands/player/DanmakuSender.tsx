import { useRef, useState } from 'react';
import { DANMAKU_TEXT_MAX, type DanmakuMode, type DanmakuSize } from '../../lib/api/contracts/interaction.constants.ts';
import { useDismiss } from '../use-dismiss.ts';
import { retryAfterOf } from '../../lib/api/http.ts';
import { useRetryCountdown } from '../use-retry-countdown.ts';

const PALETTE = [
  'ffffff',
  'fe0302',
  'ff7204',
  'ffaa02',
  'ffd302',
  '00cd00',
  '00a2ff',
  '4266be',
  '89d5ff',
  'cc0273',
  'f06e8e',
  '000000',
];

interface Props {
  t: (key: string, options?: Record<string, unknown>) => string;
  loggedIn: boolean;
  onLogin: () => void;
  onSend: (body: {
    text: string;
    color: string;
    fontSize: DanmakuSize;
    mode: DanmakuMode;
    enableRainbow: boolean;
  }) => Promise<unknown>;
}

/**
 * The sender bar: text, colour, size, mode and rainbow; Enter sends. The text clears at once (the
 * comment is already on stage) and comes back if the server refuses it. Guests are asked to log in.
 * The style popover closes on Esc, a press elsewhere (the video included) and on sending, so it
 * never stays over the bottom danmaku.
 */
export default function DanmakuSender({ t, loggedIn, onLogin, onSend }: Props) {
  const [text, setText] = useState('');
  const [color, setColor] = useState('ffffff');
  const [fontSize, setFontSize] = useState<DanmakuSize>('medium');
  const [mode, setMode] = useState<DanmakuMode>('rtl');
  const [rainbow, setRainbow] = useState(false);
  const [styleOpen, setStyleOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const styleBox = useRef<HTMLDivElement>(null);
  const styleButton = useRef<HTMLButtonElement>(null);
  useDismiss(styleOpen, styleBox, () => setStyleOpen(false), styleButton);
  // Sent too fast: the seconds the server asked to wait, counted down on the send button.
  const [waitLeft, wait] = useRetryCountdown();
  const length = [...text.trim()].length;

  const send = async () => {
    if (!length || busy || waitLeft) return;
    setBusy(true);
    setStyleOpen(false);
    const sending = text;
    setText('');
    try {
      await onSend({ text: sending, color, fontSize, mode, enableRainbow: rainbow });
    } catch (error) {
      setText(sending); // refused (the player shows why in a toast): nothing typed is lost
      const seconds = retryAfterOf(error);
      if (seconds) wait(seconds);
    } finally {
      setBusy(false);
    }
  };

  if (!loggedIn) {
    return (
      <div className="danmaku-sender is-guest" data-danmaku-sender>
        <span>{t('player.loginToSend')}</span>
        <button type="button" className="btn btn-primary" onClick={onLogin}>
          {t('player.login')}
        </button>
      </div>
    );
  }
  return (
    <div className="danmaku-sender" data-danmaku-sender>
      <div className="danmaku-style-wrap" ref={styleBox}>
        <button
          type="button"
          className="icon-btn"
          ref={styleButton}
          aria-expanded={styleOpen}
          aria-label={t('player.danmakuStyle')}
          title={t('player.danmakuStyle')}
          onClick={() => setStyleOpen(!styleOpen)}
          data-danmaku-style-button
        >
          <span
            className="style-swatch"
            style={{
              background: rainbow ? 'linear-gradient(90deg,#ff5e5e,#ffd35e,#5eff8b,#5ec8ff,#9b5eff)' : `#${color}`,
            }}
          />
        </button>
        {styleOpen && (
          <div
            className="player-popover danmaku-style"
            role="dialog"
            aria-label={t('player.danmakuStyle')}
            data-danmaku-style
          >
            <fieldset>
              <legend>{t('player.fontSize')}</legend>
              {(['small', 'medium', 'large'] as const).map((s) => (
                <label key={s} className="chip">
                  <input type="radio" name="dm-size" checked={fontSize === s} onChange={() => setFontSize(s)} />
                  {t(`player.size.${s}`)}
                </label>
              ))}
            </fieldset>
            <fieldset>
              <legend>{t('player.mode')}</legend>
              {(['rtl', 'ltr', 'top', 'bottom'] as const).map((m) => (
                <label key={m} className="chip">
                  <input type="radio" name="dm-mode" checked={mode === m} onChange={() => setMode(m)} />
                  {t(`player.modes.${m}`)}
                </label>
              ))}
            </fieldset>
            <fieldset>
              <legend>{t('player.color')}</legend>
              <div className="palette">
                {PALETTE.map((c) => (
                  <button
                    key={c}
                    type="button"
                    className="swatch"
                    aria-label={`#${c}`}
                    aria-pressed={color === c && !rainbow}
                    style={{ background: `#${c}` }}
                    onClick={() => {
                      setColor(c);
                      setRainbow(false);
                    }}
                  />
                ))}
                <input
                  type="color"
                  aria-label={t('player.customColor')}
                  value={`#${color}`}
                  onChange={(e) => {
                    setColor(e.target.value.slice(1));
                    setRainbow(false);
                  }}
                />
              </div>
              <label className="check">
                <input type="checkbox" checked={rainbow} onChange={(e) => setRainbow(e.target.checked)} />{' '}
                {t('player.rainbow')}
              </label>
            </fieldset>
          </div>
        )}
      </div>
      <input
        className="danmaku-input"
        value={text}
        maxLength={DANMAKU_TEXT_MAX * 2}
        placeholder={t('player.sendPlaceholder')}
        aria-label={t('player.sendPlaceholder')}
        aria-invalid={length > DANMAKU_TEXT_MAX}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.nativeEvent.isComposing) void send();
        }}
        data-danmaku-input
      />
      <span className={`danmaku-count ${length > DANMAKU_TEXT_MAX ? 'is-over' : ''}`}>
        {length}/{DANMAKU_TEXT_MAX}
      </span>
      <button
        type="button"
        className="btn btn-primary"
        disabled={!length || length > DANMAKU_TEXT_MAX || busy || waitLeft > 0}
        onClick={() => void send()}
        data-danmaku-send
        aria-label={waitLeft ? t('player.waitToSend', { seconds: waitLeft }) : undefined}
        data-danmaku-wait={waitLeft || undefined}
      >
        {waitLeft ? t('player.waitSeconds', { seconds: waitLeft }) : t('player.send')}
      </button>
    </div>
  );
}
