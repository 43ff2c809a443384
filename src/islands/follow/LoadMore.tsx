/** The foot of a cursor-paged list: "load more" while there is a next page, else the end; a failed page says so. */
export default function LoadMore({
  pages,
  labels,
}: {
  pages: { nextCursor: string | null; loading: boolean; failed: boolean; load: (cursor?: string) => Promise<void> };
  labels: { more: string; end: string; failed: string };
}) {
  const { nextCursor, loading, failed, load } = pages;
  return (
    <div className="feed-more">
      {nextCursor ? (
        <button
          type="button"
          className="button secondary"
          disabled={loading}
          aria-busy={loading || undefined}
          onClick={() => void load(nextCursor)}
          data-load-more
        >
          {labels.more}
        </button>
      ) : (
        <p className="feed-end">{labels.end}</p>
      )}
      {failed && (
        <p className="list-error" role="alert">
          {labels.failed}
        </p>
      )}
    </div>
  );
}
