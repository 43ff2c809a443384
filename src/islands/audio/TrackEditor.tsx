import { useState, type FormEvent } from 'react';
import type { TFunction } from 'i18next';
import { updateAudio } from '../../lib/api/calls/audio.ts';
import type { MyTrack } from '../../lib/api/contracts/audio.ts';
import { AUDIO_ARTIST_MAX } from '../../lib/api/contracts/audio.constants.ts';
import type { VideoCategory } from '../../lib/api/contracts/video.constants.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { EditorFooter, useMetaSave } from '../my-videos/editor-parts.tsx';
import FormFields from '../settings/FormFields.tsx';
import VideoMetaFields, { type MetaValues } from '../uploader/VideoMetaFields.tsx';
import { PendingNotice, usePendingWork } from '../uploader/pending-work.tsx';

/** What the public sees of a track changed: its text, artist, tags or cover (an approved track then goes back to review). */
function publicChange(track: MyTrack, meta: MetaValues, artist: string): boolean {
  return (
    meta.title.trim() !== track.title ||
    meta.description.trim() !== track.description ||
    meta.cover !== track.image ||
    artist.trim() !== track.artist ||
    meta.tags.map((tag) => tag.tagId).join() !== track.tags.map((tag) => tag.tagId).join()
  );
}

/** Edits one of "my tracks" in place: the audio upload form's own fields, saved with POST audio/update. */
export default function TrackEditor({
  locale,
  t,
  track,
  onSaved,
  onCancel,
}: {
  locale: Locale;
  t: TFunction;
  track: MyTrack;
  onSaved: (backToReview: boolean) => void;
  onCancel: () => void;
}) {
  const [meta, setMeta] = useState<MetaValues>({
    title: track.title,
    description: track.description,
    category: track.category as VideoCategory,
    tags: track.tags,
    cover: track.image,
  });
  const [artist, setArtist] = useState(track.artist);
  const { busy, ready, error, errors, save } = useMetaSave(t, onSaved);
  const pending = usePendingWork();
  const reReview = track.status === 'approved' && publicChange(track, meta, artist);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!meta.category || pending.check()) return;
    save(() =>
      updateAudio({
        audioId: track.audioId,
        title: meta.title,
        artist,
        description: meta.description,
        image: meta.cover,
        audioCategory: meta.category as VideoCategory,
        audioTagList: meta.tags.map((tag) => tag.tagId),
      }),
    );
  };

  return (
    <form
      className="auth-form upload-form my-video-editor"
      onSubmit={submit}
      aria-label={t('myTracks.editTitle', { title: track.title })}
      data-track-editor
    >
      <FormFields ready={ready}>
        <pending.Provider>
          <VideoMetaFields
            locale={locale}
            t={t}
            values={meta}
            onChange={(changes) => setMeta((m) => ({ ...m, ...changes }))}
            errors={errors}
            posterUrl={track.image ? null : track.cover || null}
            kind="audio"
          >
            <label className="field">
              <span className="field-label">{t('audio.form.artist')}</span>
              <input
                name="artist"
                maxLength={AUDIO_ARTIST_MAX}
                value={artist}
                onChange={(e) => setArtist(e.target.value)}
                placeholder={t('audio.form.artistHint')}
              />
            </label>
          </VideoMetaFields>
        </pending.Provider>
        <PendingNotice message={pending.message} />
        <EditorFooter
          t={t}
          approved={track.status === 'approved'}
          reReview={reReview}
          error={error}
          busy={busy}
          onCancel={onCancel}
          texts={{ warning: t('myTracks.reReviewWarning'), note: t('myTracks.reReviewNote') }}
        />
      </FormFields>
    </form>
  );
}
