import type { Actor } from '../../src/lib/policy/policy.ts';
import type { MediaTarget, MediaType } from '../../src/lib/api/contracts/common.constants.ts';

/** What danmaku, comments and history need to know of their target, as one looker may see it. */
export interface TargetFacts {
  /** 0 for a target without a timeline (a photo post). */
  durationMs: number;
  status: 'pending' | 'approved';
  uploaderUid: number;
}

/** Finds one target of a type if it exists and the looker may see it (pending ones: their uploader and staff). */
export type TargetLookup = (id: number, looker: Actor | null) => Promise<TargetFacts | null>;

/**
 * The one place that knows which service owns each target type: each section (videos, audio,
 * photos) gives its lookup to the composition root, and the danmaku, comment and history
 * handlers ask here. A type nobody registered has no targets (every id is not found).
 */
export function createMediaTargets(lookups: Partial<Record<MediaType, TargetLookup>>) {
  return {
    /** The target if it exists and `looker` may see it; null otherwise. */
    visible(target: MediaTarget, looker: Actor | null): Promise<TargetFacts | null> {
      const lookup = lookups[target.type];
      return lookup ? lookup(target.id, looker) : Promise.resolve(null);
    },
  };
}
export type MediaTargets = ReturnType<typeof createMediaTargets>;
