import { describe, expect, it } from 'vitest';
import { guessSubtitleFile } from '../../src/lib/subtitles/subtitle-files.ts';

describe('subtitle file names', () => {
  it.each([
    ['ep01.zh-Hans.ass', { format: 'ass', language: 'zh-Hans' }],
    ['[Group] Show - 01 [ja].srt', { format: 'srt', language: 'ja' }],
    ['movie.en-us.vtt', { format: 'vtt', language: 'en-US' }],
    ['old.SSA', { format: 'ass', language: 'und' }],
    ['ep01.final.ass', { format: 'ass', language: 'und' }],
  ])('%s', (name, guess) => {
    expect(guessSubtitleFile(name, 'und')).toEqual(guess);
  });

  it('refuses other files', () => {
    expect(guessSubtitleFile('cover.png')).toBeNull();
    expect(guessSubtitleFile('noextension')).toBeNull();
  });
});
