import type { InputHTMLAttributes } from 'react';

/** A labelled, required form input, as the settings forms use them. */
export default function Input({ label, ...props }: { label: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <input required {...props} />
    </label>
  );
}
