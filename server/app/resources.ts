/**
 * The resource loaders a route entry names (`resource` in src/lib/api/route.ts): each reads the
 * thing the call acts on from the call's parsed input, as the policy looks at it (its owner), with
 * whatever the service needs of it beside. The mount (mount-routes.ts) runs the entry's loader
 * once, checks the entry's permission against what it read, and hands it to the handler as
 * `ctx.resource`: no handler loads an owner or asks the policy itself.
 */
import type { Context } from 'hono';
import type { AppEnv } from './app-env.ts';
import type { Services } from '#server/services/index.ts';
import type { Viewer } from '#server/services/sessions.ts';
import { Forbidden, NotFound } from '#server/domain/errors.ts';
import type { ResourceName } from '#lib/api/route.ts';
import type { Resource } from '#lib/policy/policy.ts';
import type { MediaTarget, MediaType } from '#lib/api/contracts/common.constants.ts';

/** What a loader may read beside the input: the services and who asks. */
export interface LoaderContext {
  services: Services;
  /** Who asks: the logged-in account, or null for a guest (looked up once per request). */
  viewer(): Promise<Viewer | null>;
  c: Context<AppEnv>;
}

type Named = { videoId: number; mediaType: MediaType };
const targetOf = ({ videoId, mediaType }: Named): MediaTarget => ({ type: mediaType, id: videoId });

/** The target as the caller sees it (the uploader sees their own pending one too); 404 otherwise. */
async function visibleTarget(input: Named, { services, viewer }: LoaderContext) {
  const target = targetOf(input);
  const found = await services.targets.visible(target, await viewer());
  if (!found) throw new NotFound();
  return { ownerUid: found.uploaderUid, target, ...found };
}

export const RESOURCE_LOADERS = {
  video: async ({ videoId }: { videoId: number }, { services }: LoaderContext) => ({
    ownerUid: await services.videos.uploaderOf(videoId),
  }),
  audio: async ({ audioId }: { audioId: number }, { services }: LoaderContext) => {
    const ownerUid = await services.audio.uploaderOf(audioId);
    if (ownerUid === undefined) throw new NotFound();
    return { ownerUid };
  },
  photo: async ({ photoId }: { photoId: number }, { services }: LoaderContext) => ({
    ownerUid: await services.photos.uploaderOf(photoId),
  }),
  subtitle: async ({ id }: { id: number }, { services }: LoaderContext) => ({
    ownerUid: await services.videos.uploaderOf(await services.subtitles.videoOf(id)),
  }),
  collection: async ({ collectionId }: { collectionId: number }, { services, viewer }: LoaderContext) => ({
    ownerUid: await services.collections.ownerOf(collectionId, (await viewer())?.uid ?? null),
  }),
  comment: async (
    { mediaType, commentRoute }: { mediaType: MediaType; commentRoute: string },
    { services }: LoaderContext,
  ) => ({ ownerUid: await services.comments.authorOf(mediaType, commentRoute) }),
  media: ({ mediaId }: { mediaId: string }, { services }: LoaderContext) => services.media.status(mediaId),
  visibleVideo: async ({ videoId }: { videoId: number }, { services, viewer }: LoaderContext) => {
    const found = await services.catalogue.visibleVideo(videoId, await viewer());
    if (!found) throw new NotFound();
    return { ownerUid: found.uploaderUid, ...found };
  },
  visibleTarget,
  /** Checked before any rate limit of the call, so a refusal costs the writer nothing. */
  writableTarget: async (input: Named, context: LoaderContext) => {
    const found = await visibleTarget(input, context);
    if (await context.services.blockLists.isBlockedBy(found.uploaderUid, (await context.viewer())!.uid))
      throw new Forbidden('BLOCKED_BY_UPLOADER');
    return found;
  },
  imageGrant: async (_input: unknown, { services, c }: LoaderContext) => {
    const grant = services.images.readGrant(c.req.query());
    return { signedGrant: grant !== null, grant };
  },
} satisfies Record<ResourceName, (input: never, context: LoaderContext) => Promise<Resource>>;

/** What the handler of an entry with `resource: N` receives as `ctx.resource`. */
export type LoadedResource<N extends ResourceName> = Awaited<ReturnType<(typeof RESOURCE_LOADERS)[N]>>;
