import { openAuthDialog } from './open-auth-dialog.ts';

/** What a guest sees where a page is for members: why, and the button that opens the login dialog. */
export function LoginPrompt({
  message,
  action,
  state,
}: {
  message: string;
  action: string;
  state: Record<string, string>;
}) {
  return (
    <section className="card list-empty" {...state}>
      <p>{message}</p>
      <button type="button" className="button" onClick={() => void openAuthDialog('login')}>
        {action}
      </button>
    </section>
  );
}
