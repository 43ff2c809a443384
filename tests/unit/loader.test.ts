import { describe, expect, it } from 'vitest';
import { createLoader, loadedWith, type Loaded } from '../../src/lib/stores/loader.ts';

function recorder<T>() {
  const states: Array<Loaded<T>['state']> = [];
  return { states, onChange: (loaded: Loaded<T>) => void states.push(loaded.state) };
}

describe('the generic loader (SPEC §4: idle, pending, success, error)', () => {
  it('goes idle → pending → success with the answer', async () => {
    const seen = recorder<number>();
    const loader = createLoader<number>(seen.onChange);
    expect(loader.get().state).toBe('idle');
    await loader.run(async () => 42);
    expect(seen.states).toEqual(['pending', 'success']);
    expect(loader.get()).toEqual({ state: 'success', data: 42, error: undefined });
  });

  it('goes to error and keeps what was shown before', async () => {
    const loader = createLoader<string[]>(() => {}, loadedWith(['first page']));
    const failure = new Error('network');
    await loader.run(async () => {
      throw failure;
    });
    expect(loader.get()).toEqual({ state: 'error', data: ['first page'], error: failure });
    await loader.run(async () => ['again']);
    expect(loader.get()).toEqual({ state: 'success', data: ['again'], error: undefined });
  });

  it('drops an answer that arrives after a newer load started', async () => {
    const loader = createLoader<string>(() => {});
    let answerSlow!: (value: string) => void;
    const slow = loader.run(
      () =>
        new Promise<string>((resolve) => {
          answerSlow = resolve;
        }),
    );
    await loader.run(async () => 'newer');
    answerSlow('older');
    await slow;
    expect(loader.get().data).toBe('newer');
  });

  it('merges pages into what it holds, and reset forgets a load under way', async () => {
    const loader = createLoader<number[]>(() => {});
    const append = (shown: number[] | undefined, page: number[]) => [...(shown ?? []), ...page];
    await loader.run(async () => [1, 2], append);
    await loader.run(async () => [3], append);
    expect(loader.get().data).toEqual([1, 2, 3]);
    const pending = loader.run(async () => [4], append);
    loader.reset();
    await pending;
    expect(loader.get()).toEqual({ state: 'idle', data: undefined, error: undefined });
  });
});
