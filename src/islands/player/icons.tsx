/** The player's icons (24 px line icons, currentColor), inline so nothing is fetched. */
const PATHS = {
  play: 'M8 5.5v13l11-6.5z',
  pause: 'M7 5h3.5v14H7zM13.5 5H17v14h-3.5z',
  stop: 'M6.5 6.5h11v11h-11z',
  replay: 'M12 5a7 7 0 1 1-6.6 4.7M5 4v5h5',
  prevFrame: 'M17 6v12l-8-6zM7 6v12',
  nextFrame: 'M7 6v12l8-6zM17 6v12',
  volume: 'M4 9.5h3.5L12 5.5v13l-4.5-4H4zM15.5 9a4 4 0 0 1 0 6M18 6.5a7.5 7.5 0 0 1 0 11',
  muted: 'M4 9.5h3.5L12 5.5v13l-4.5-4H4zM16 9.5l5 5M21 9.5l-5 5',
  danmakuOn: 'M4 5h16v11H9l-4 3.5V16H4zM8 9h8M8 12h5',
  danmakuOff: 'M4 5h16v11H9l-4 3.5V16H4zM4 4l16 16',
  gear: 'M12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6zM19.4 13.5l1.6 1.2-1.8 3.1-1.9-.7a7 7 0 0 1-1.8 1l-.3 2H10.8l-.3-2a7 7 0 0 1-1.8-1l-1.9.7L5 14.7l1.6-1.2a7 7 0 0 1 0-3L5 9.3l1.8-3.1 1.9.7a7 7 0 0 1 1.8-1l.3-2h3.4l.3 2a7 7 0 0 1 1.8 1l1.9-.7L21 9.3l-1.6 1.2a7 7 0 0 1 0 3z',
  danmakuSettings: 'M4 5h16v11H9l-4 3.5V16H4zM8 9.5h2M12 9.5h4M8 12.5h6',
  pip: 'M3.5 5.5h17v13h-17zM12 12h6v4.5h-6z',
  webFullscreen: 'M4 8V4h4M16 4h4v4M20 16v4h-4M8 20H4v-4M9 9h6v6H9z',
  fullscreen: 'M4 9V4h5M15 4h5v5M20 15v5h-5M9 20H4v-5',
  exitFullscreen: 'M9 4v5H4M20 9h-5V4M15 20v-5h5M4 15h5v5',
  camera: 'M4 8h3l2-2.5h6L17 8h3v11H4zM12 10.5a3.5 3.5 0 1 0 0 7 3.5 3.5 0 0 0 0-7z',
  subtitlesOn: 'M3.5 5.5h17v13h-17zM10.5 10.2a2.2 2.2 0 1 0 0 3.6M16.5 10.2a2.2 2.2 0 1 0 0 3.6',
  subtitlesOff: 'M3.5 5.5h17v13h-17zM10.5 10.2a2.2 2.2 0 1 0 0 3.6M16.5 10.2a2.2 2.2 0 1 0 0 3.6M4 4l16 16',
  list: 'M8 6.5h12M8 12h12M8 17.5h12M4 6.5h.01M4 12h.01M4 17.5h.01',
  stats: 'M5 19V11M10 19V5M15 19v-6M20 19V8',
  close: 'M6 6l12 12M18 6L6 18',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 22 }: { name: IconName; size?: number }) {
  return (
    <svg
      className="player-icon"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill={name === 'play' || name === 'pause' || name === 'stop' ? 'currentColor' : 'none'}
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
