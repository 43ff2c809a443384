import type { ReactNode } from 'react';

/**
 * A form's fields, closed to typing until the island has hydrated. React does not take over
 * what was typed into a server-rendered controlled field before hydration (its state stays
 * empty while the field shows text), so a form sent then would send nothing of it; a field
 * that cannot be typed into yet loses nothing. `display: contents` keeps the form's layout.
 */
export default function FormFields({ ready, children }: { ready: boolean; children: ReactNode }) {
  return (
    <fieldset className="form-fields" disabled={!ready}>
      {children}
    </fieldset>
  );
}
