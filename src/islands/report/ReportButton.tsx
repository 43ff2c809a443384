import { useState } from 'react';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import { openAuthDialog } from '../auth/open-auth-dialog.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useSelfUser } from '../use-self-user.ts';
import type { ReportTarget } from './ReportDialog.tsx';
import LazyReportDialog from './LazyReportDialog.tsx';

/**
 * "Report" on video, track, photo post and user pages; guests get the login dialog. Not shown to
 * the item's own author (`ownerUid`): the server refuses such a report too (CANNOT_REPORT_OWN).
 */
export default function ReportButton({
  locale,
  messages,
  target,
  ownerUid,
}: {
  locale: Locale;
  messages: Messages;
  target: ReportTarget;
  ownerUid?: number;
}) {
  const translate = useIslandTranslation(locale, messages);
  const t = (key: string, options?: Record<string, unknown>) => String(translate(key, options as never));
  const self = useSelfUser();
  const [open, setOpen] = useState(false);
  if (ownerUid !== undefined && self.userInfo?.uid === ownerUid) return null;
  return (
    <>
      <button
        type="button"
        className="button secondary report-button"
        aria-haspopup="dialog"
        data-report-button
        onClick={() => (self.isLogined ? setOpen(true) : void openAuthDialog('login'))}
      >
        <span aria-hidden="true">⚑</span>
        {t('moderation.report.action')}
      </button>
      <LazyReportDialog t={t} target={open ? target : null} onClose={() => setOpen(false)} />
    </>
  );
}
