import { lazy, Suspense, useState } from 'react';
import type { ReportTarget } from './ReportDialog.tsx';
import './report.css';

/** The dialog's code is a chunk of its own, fetched the first time a report is begun (pages that only show the button never load it). */
const ReportDialog = lazy(() => import('./ReportDialog.tsx'));

interface Props {
  t: (key: string, options?: Record<string, unknown>) => string;
  target: ReportTarget | null;
  onClose: () => void;
}

/** The report dialog, loaded on first use and kept mounted afterwards (so closing it returns focus natively). */
export default function LazyReportDialog(props: Props) {
  const [wanted, setWanted] = useState(false);
  if (props.target && !wanted) setWanted(true);
  return wanted ? (
    <Suspense fallback={null}>
      <ReportDialog {...props} />
    </Suspense>
  ) : null;
}
