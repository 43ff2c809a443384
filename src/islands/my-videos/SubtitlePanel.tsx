import { useEffect, useState, type DragEvent } from 'react';
import type { TFunction } from 'i18next';
import { createSubtitle, deleteSubtitle, listSubtitles } from '../../lib/api/calls/subtitle.ts';
import type { Subtitle } from '../../lib/api/contracts/subtitle.ts';
import { SUBTITLE_LABEL_MAX } from '../../lib/api/contracts/subtitle.constants.ts';
import { guessSubtitleFile, type SubtitleFileGuess } from '../../lib/subtitles/subtitle-files.ts';
import { HttpError } from '../../lib/api/http.ts';

interface Draft extends SubtitleFileGuess {
  key: string;
  name: string;
  label: string;
  text: string;
}

const labelOf = (language: string) => {
  try {
    return (language && new Intl.DisplayNames([language], { type: 'language' }).of(language)) || language;
  } catch {
    return language;
  }
};
const messageOf = (failure: unknown, fallback: string) =>
  (failure instanceof HttpError && (failure.body as { message?: string } | null)?.message) || fallback;

/**
 * A video's subtitle tracks in "my videos": the tracks it has (with their files), and files
 * dropped or chosen here, each with the language its name suggests (`ep01.zh-Hans.ass`) and a
 * label, both editable before they are added. The server parses every file and says why it
 * refuses one.
 */
export default function SubtitlePanel({ t, videoId, parts }: { t: TFunction; videoId: number; parts: number }) {
  const [tracks, setTracks] = useState<Subtitle[] | null>(null);
  const [drafts, setDrafts] = useState<Draft[]>([]);
  const [part, setPart] = useState(1);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);

  const reload = () =>
    listSubtitles(videoId)
      .then((r) => setTracks(r.subtitles))
      .catch((failure) => setMessage(messageOf(failure, t('api.internal'))));
  useEffect(() => void reload(), [videoId]);

  async function take(files: FileList | null) {
    setMessage('');
    for (const file of Array.from(files ?? [])) {
      const guess = guessSubtitleFile(file.name);
      if (!guess) {
        setMessage(t('subtitles.unknownFormat'));
        continue;
      }
      const text = await file.text();
      setDrafts((list) => [
        ...list,
        {
          ...guess,
          key: `${file.name}:${Date.now()}:${Math.random()}`,
          name: file.name,
          label: labelOf(guess.language),
          text,
        },
      ]);
    }
  }
  const change = (key: string, changes: Partial<Draft>) =>
    setDrafts((list) => list.map((d) => (d.key === key ? { ...d, ...changes } : d)));
  async function add(draft: Draft) {
    setBusy(true);
    try {
      await createSubtitle({
        videoId,
        part,
        language: draft.language,
        label: draft.label,
        format: draft.format,
        text: draft.text,
      });
      setDrafts((list) => list.filter((d) => d.key !== draft.key));
      setMessage(t('subtitles.added'));
      await reload();
    } catch (failure) {
      setMessage(messageOf(failure, t('api.internal')));
    } finally {
      setBusy(false);
    }
  }
  async function remove(id: number) {
    setBusy(true);
    try {
      await deleteSubtitle(id);
      setMessage(t('subtitles.removed'));
      await reload();
    } catch (failure) {
      setMessage(messageOf(failure, t('api.internal')));
    } finally {
      setBusy(false);
    }
  }
  const drop = (e: DragEvent) => {
    e.preventDefault();
    void take(e.dataTransfer.files);
  };

  return (
    <section className="subtitle-panel" aria-label={t('subtitles.panelTitle')} data-subtitle-panel>
      <h3>{t('subtitles.panelTitle')}</h3>
      {parts > 1 && (
        <label className="subtitle-part">
          {t('subtitles.part')}{' '}
          <select value={part} onChange={(e) => setPart(Number(e.target.value))}>
            {Array.from({ length: parts }, (_, i) => (
              <option key={i} value={i + 1}>
                P{i + 1}
              </option>
            ))}
          </select>
        </label>
      )}
      {tracks && tracks.length === 0 && <p className="field-hint">{t('subtitles.none')}</p>}
      <ul className="subtitle-tracks">
        {tracks?.map((s) => (
          <li key={s.id} data-subtitle-id={s.id}>
            <span className="subtitle-lang" lang={s.language}>
              {s.label}
            </span>
            <span className="field-hint">
              P{s.part} · {s.language} · {s.format.toUpperCase()}
            </span>
            <a href={s.url} download>
              {t('subtitles.download')}
            </a>
            <button type="button" className="button secondary danger" disabled={busy} onClick={() => void remove(s.id)}>
              {t('subtitles.remove')}
            </button>
          </li>
        ))}
      </ul>
      <label className="subtitle-drop" onDragOver={(e) => e.preventDefault()} onDrop={drop} data-subtitle-drop>
        <span>{t('subtitles.dropHint')}</span>
        <span className="button secondary">{t('subtitles.choose')}</span>
        <input
          type="file"
          accept=".ass,.ssa,.srt,.vtt"
          multiple
          hidden
          onChange={(e) => {
            void take(e.target.files);
            e.target.value = '';
          }}
        />
      </label>
      {drafts.map((d) => (
        <div key={d.key} className="subtitle-draft" data-subtitle-draft>
          <span className="subtitle-file">{d.name}</span>
          <label>
            {t('subtitles.language')}{' '}
            <input value={d.language} size={8} onChange={(e) => change(d.key, { language: e.target.value })} required />
          </label>
          <label>
            {t('subtitles.label')}{' '}
            <input
              value={d.label}
              maxLength={SUBTITLE_LABEL_MAX}
              onChange={(e) => change(d.key, { label: e.target.value })}
              required
            />
          </label>
          <button
            type="button"
            className="button"
            disabled={busy || !d.language || !d.label.trim()}
            onClick={() => void add(d)}
          >
            {t('subtitles.add')}
          </button>
          <button
            type="button"
            className="button secondary"
            onClick={() => setDrafts((list) => list.filter((x) => x.key !== d.key))}
          >
            {t('subtitles.remove')}
          </button>
        </div>
      ))}
      {message && (
        <p className="field-hint" role="status">
          {message}
        </p>
      )}
    </section>
  );
}
