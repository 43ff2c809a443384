import { useEffect, useRef, useState } from 'react';

/** How long typing must pause before a field is checked with the server. */
export const LIVE_CHECK_DELAY_MS = 500;

/**
 * A registration field checked while it is typed (SPEC §7's existence checks): once the value
 * has rested for LIVE_CHECK_DELAY_MS and is worth asking about, `ask` answers a note ('' when all
 * is well). A stale answer never overwrites a newer value's, and a failed check (the per-address
 * lookup limit, the network) says nothing: the submit still checks everything.
 */
export function useLiveCheck(
  value: string,
  worthAsking: (value: string) => boolean,
  ask: (value: string) => Promise<string>,
): string {
  const [note, setNote] = useState('');
  const latest = useRef({ worthAsking, ask });
  latest.current = { worthAsking, ask };
  useEffect(() => {
    setNote('');
    if (!value || !latest.current.worthAsking(value)) return;
    let current = true;
    const timer = setTimeout(() => {
      latest.current.ask(value).then(
        (answer) => {
          if (current) setNote(answer);
        },
        () => undefined,
      );
    }, LIVE_CHECK_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [value]);
  return note;
}
