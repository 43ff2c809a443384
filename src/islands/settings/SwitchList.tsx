import type { MapStore } from 'nanostores';
import { useHydratedStore } from '../use-hydrated-store.ts';
import type { useIslandTranslation } from '../use-island-translation.ts';
import '../../styles/switch.css';

/**
 * A card of on/off switches over one persisted map store of 'true'/'false' values (Preference,
 * Experimental): each switch is saved at once and read wherever its feature decides.
 */
export function SwitchList<S extends object, K extends keyof S & string>({
  t,
  store,
  defaults,
  keys,
  prefix,
  name,
}: {
  t: ReturnType<typeof useIslandTranslation>;
  store: MapStore<S>;
  defaults: S;
  keys: readonly K[];
  /** Message keys: `${prefix}.${key}.title` and `${prefix}.${key}.hint`. */
  prefix: string;
  name: string;
}) {
  const values = useHydratedStore(store, defaults);
  return (
    <section className="card switch-list" data-switch-list={name}>
      {keys.map((key) => (
        <label className="switch-row" key={key}>
          <span className="switch-text">
            <span className="field-label">{t(`${prefix}.${key}.title` as string)}</span>
            <span className="field-hint">{t(`${prefix}.${key}.hint` as string)}</span>
          </span>
          <input
            type="checkbox"
            role="switch"
            className="switch"
            checked={String(values[key]) === 'true'}
            data-switch={key}
            onChange={(e) => store.set({ ...store.get(), [key]: e.target.checked ? 'true' : 'false' })}
          />
        </label>
      ))}
    </section>
  );
}
