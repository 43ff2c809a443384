import { $playerSettings, DEFAULT_PLAYER_SETTINGS, type PlayerSettings } from '../../lib/stores/player-settings.ts';
import { useHydratedStore } from '../use-hydrated-store.ts';

/** The persisted player settings; the defaults (the server's view) while hydrating. */
export function usePlayerSettings(): PlayerSettings {
  return useHydratedStore($playerSettings, DEFAULT_PLAYER_SETTINGS);
}
