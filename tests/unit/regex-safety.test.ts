import { describe, expect, it } from 'vitest';
import { regexVerdict } from '../../src/lib/validation/regex-safety.ts';

describe('block-list regular expressions', () => {
  it('accepts ordinary patterns', () => {
    for (const ok of [
      '前方高能',
      '^233+$',
      '[0-9]{6,}',
      '(cat|dog)+',
      '(?:草){3,}',
      'a.*b',
      '\\p{Script=Han}+',
      '(ab|ba)*c',
      'hello\\s?world',
      '(?<x>ab)c',
    ]) {
      expect([ok, regexVerdict(ok)]).toEqual([ok, 'ok']);
    }
  });
  it('refuses what could backtrack catastrophically', () => {
    for (const bad of [
      '(a+)+$',
      '(a*)*',
      '(\\w+\\s?)+',
      '(a|a)*',
      '(a|ab)+',
      '(a|.)+',
      '(.*a){5}',
      '\\d+\\d+\\d+',
      '(x)\\1',
      '(?<n>a)\\k<n>',
      '.*a.*b.*c',
      '((ab)*)+',
    ]) {
      expect([bad, regexVerdict(bad)]).toEqual([bad, 'unsafe']);
    }
  });
  it('refuses what does not compile with the filters’ flags', () => {
    for (const bad of ['(', 'a{', '[z-a]', '\\', '*a', '(?<='])
      expect([bad, regexVerdict(bad)]).toEqual([bad, 'invalid']);
  });
  it('finishes quickly on what it accepts, on a hostile text ten times as long as a danmaku', () => {
    const text = `${'a'.repeat(1000)}!`;
    for (const pattern of ['(cat|dog)+$', 'a.*b', '^a+b', '[a-z]+\\d+$']) {
      expect(regexVerdict(pattern)).toBe('ok');
      const started = performance.now();
      new RegExp(pattern, 'iu').test(text);
      expect(performance.now() - started).toBeLessThan(250);
    }
  });
});
