import type { HandlerContext } from '../mount-routes.ts';
import type { ForViewer } from '#server/services/for-viewer.ts';

/**
 * The answer of a read the service says may be personal (server/services/for-viewer.ts):
 * `{ success: true, ...answer }`, kept out of shared caches when it is. The cache rule is the
 * handler's part, as HTTP; who the answer is for is the service's.
 */
export async function answerFor<T extends object>(
  ctx: Pick<HandlerContext, 'cache'>,
  work: Promise<ForViewer<T>>,
): Promise<{ success: true } & T> {
  const { answer, personal } = await work;
  if (personal) ctx.cache('private');
  return { success: true, ...answer };
}

/** The viewer a list leaves things out for (their block lists), or null: the same list for everyone. */
export const viewerUidFor = async ({
  services,
  viewer,
}: Pick<HandlerContext, 'services' | 'viewer'>): Promise<number | null> =>
  (await services.forViewer.listViewer(await viewer())).viewerUid;

/** As viewerUidFor, for a list the table lets shared caches keep: a personal one is kept out of them. */
export const listFor = async (ctx: Pick<HandlerContext, 'services' | 'viewer' | 'cache'>): Promise<number | null> =>
  (
    await answerFor(
      ctx,
      ctx.services.forViewer
        .listViewer(await ctx.viewer())
        .then(({ viewerUid, personal }) => ({ answer: { viewerUid }, personal })),
    )
  ).viewerUid;
