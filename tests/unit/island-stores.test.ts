import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { atom } from 'nanostores';
import { useHydratedStore } from '../../src/islands/use-hydrated-store.ts';

const ISLANDS = join(process.cwd(), 'src', 'islands');
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );

describe('islands reading shared stores', () => {
  it('render the server snapshot, whatever the store holds, so the first client render can match it', () => {
    const $store = atom('stored in this browser');
    const Island = () => createElement('p', null, useHydratedStore($store, 'as the server saw it'));
    expect(renderToString(createElement(Island))).toBe('<p>as the server saw it</p>');
  });

  it('go through useHydratedStore only: a plain useStore would hydrate with the browser value (React #418)', () => {
    const direct = sources(ISLANDS)
      .filter(
        (file) => !file.endsWith('use-hydrated-store.ts') && readFileSync(file, 'utf8').includes('@nanostores/react'),
      )
      .map((file) => relative(ISLANDS, file));
    expect(direct).toEqual([]);
  });
});
