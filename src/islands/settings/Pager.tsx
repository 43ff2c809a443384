import type { TFunction } from 'i18next';

/** Previous / "page x of y" / next, as the administrators' lists use it (texts from the admin namespace). */
export default function Pager({
  t,
  page,
  pages,
  busy,
  onPage,
}: {
  t: TFunction;
  page: number;
  pages: number;
  busy: boolean;
  onPage: (page: number) => void;
}) {
  return (
    <nav className="pager">
      <button type="button" className="button secondary" disabled={page <= 1 || busy} onClick={() => onPage(page - 1)}>
        {t('admin.previous')}
      </button>
      <span>{t('admin.pageOf', { page, pages })}</span>
      <button
        type="button"
        className="button secondary"
        disabled={page >= pages || busy}
        onClick={() => onPage(page + 1)}
      >
        {t('admin.next')}
      </button>
    </nav>
  );
}
