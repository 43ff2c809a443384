import {
  useEffect,
  useRef,
  type Dispatch,
  type MouseEvent as ReactMouseEvent,
  type PointerEvent as ReactPointerEvent,
  type RefObject,
} from 'react';
import { stageTap, type PlayerEvent, type PlayerState } from '../../lib/player/player-state.ts';

const CONTROLS_HIDE_MS = 2500;

interface Commands {
  togglePlay(): void;
  toggleFullscreen(): void;
}

/**
 * The controls show on activity and hide by themselves while playing (not while a menu is open:
 * on touch no pointer move keeps them up while one is used). `stage` takes the pointer on the
 * video: a click plays or pauses and a double click goes fullscreen; on touch a tap shows or
 * hides the controls and a double tap plays or pauses (see stageTap).
 */
export function useControlsVisibility(
  videoRef: RefObject<HTMLVideoElement | null>,
  state: PlayerState,
  dispatch: Dispatch<PlayerEvent>,
  commands: Commands,
) {
  const hideTimer = useRef(0);
  const panelOpen = useRef(false);
  panelOpen.current = state.panel !== null;
  const showControls = () => {
    dispatch({ type: 'controls', shown: true });
    window.clearTimeout(hideTimer.current);
    hideTimer.current = window.setTimeout(
      () => !videoRef.current?.paused && !panelOpen.current && dispatch({ type: 'controls', shown: false }),
      CONTROLS_HIDE_MS,
    );
  };
  useEffect(() => {
    if (state.paused) {
      window.clearTimeout(hideTimer.current);
      dispatch({ type: 'controls', shown: true });
    } else showControls();
  }, [state.paused]);

  const lastTap = useRef(0);
  const lastPointer = useRef('mouse');
  const stage = {
    onPointerUp: (e: ReactPointerEvent) => {
      lastPointer.current = e.pointerType;
      if (e.target !== e.currentTarget && !(e.target as Element).matches('video, canvas')) return;
      const tap = stageTap({
        pointerType: e.pointerType,
        at: e.timeStamp,
        lastTap: lastTap.current,
        panelOpen: state.panel !== null,
        controlsShown: state.controlsShown,
      });
      lastTap.current = tap.lastTap;
      if (tap.act === 'closePanel') {
        dispatch({ type: 'panel', panel: null });
        showControls();
      } else if (tap.act === 'togglePlay') commands.togglePlay();
      else if (tap.act === 'hideControls') dispatch({ type: 'controls', shown: false });
      else showControls();
    },
    onPointerMove: (e: ReactPointerEvent) => e.pointerType === 'mouse' && showControls(),
    onDoubleClick: (e: ReactMouseEvent) =>
      lastPointer.current === 'mouse' && (e.target as Element).matches('video, canvas') && commands.toggleFullscreen(),
  };
  return { showControls, stage };
}
