import { persistentMap } from '@nanostores/persistent';

/**
 * Experimental features: only switches that change something real, each read where its feature
 * decides. A feature leaves this list when it becomes the default (its switch goes with it).
 */
export const EXPERIMENTAL_FLAGS = ['pageTransitions'] as const;
export type ExperimentalFlag = (typeof EXPERIMENTAL_FLAGS)[number];

export const DEFAULT_EXPERIMENTAL: Record<ExperimentalFlag, 'true' | 'false'> = {
  // Cross-document view transitions (page-jump-in, the 500 ms language switch): Chromium only so far.
  pageTransitions: 'true',
};

export const $experimental = persistentMap<Record<ExperimentalFlag, 'true' | 'false'>>(
  'experimental:',
  DEFAULT_EXPERIMENTAL,
);

export function flagOn(flag: ExperimentalFlag): boolean {
  return $experimental.get()[flag] === 'true';
}
