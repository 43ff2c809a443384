import { useEffect, useState } from 'react';

/**
 * The seconds left before a rate-limited action may be tried again (the API's retryAfterSeconds),
 * counting down once a second to 0; `wait(seconds)` starts it.
 */
export function useRetryCountdown(): [number, (seconds: number) => void] {
  const [until, setUntil] = useState(0);
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (!until) return;
    const tick = () => {
      const seconds = Math.max(0, Math.ceil((until - Date.now()) / 1000));
      setLeft(seconds);
      if (!seconds) setUntil(0);
    };
    tick();
    const timer = setInterval(tick, 250);
    return () => clearInterval(timer);
  }, [until]);
  return [left, (seconds: number) => setUntil(Date.now() + seconds * 1000)];
}
