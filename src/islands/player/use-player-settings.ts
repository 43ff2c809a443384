import { useSyncExternalStore } from 'react';
import { $playerSettings, DEFAULT_PLAYER_SETTINGS, type PlayerSettings } from '../../lib/stores/player-settings.ts';

/**
 * The persisted player settings; the first client render uses the defaults, as the server
 * did, and the stored values follow right after hydration (no mismatch, React #418).
 */
export function usePlayerSettings(): PlayerSettings {
  return useSyncExternalStore((listener) => $playerSettings.listen(listener), () => $playerSettings.get(), () => DEFAULT_PLAYER_SETTINGS);
}
