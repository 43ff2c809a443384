import { useState, type FormEvent } from 'react';
import type { TFunction } from 'i18next';
import { updateVideo } from '../../lib/api/index.ts';
import type { MyVideo } from '../../lib/api/contracts/video.ts';
import type { VideoCategory } from '../../lib/api/contracts/video.constants.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { EditorFooter, useMetaSave } from './editor-parts.tsx';
import FormFields from '../settings/FormFields.tsx';
import VideoMetaFields, { type MetaValues } from '../uploader/VideoMetaFields.tsx';
import { PendingNotice, usePendingWork } from '../uploader/pending-work.tsx';

/** What the public sees of a video changed: its text, tags or cover (an approved video then goes back to review). */
function publicChange(video: MyVideo, meta: MetaValues): boolean {
  return (
    meta.title.trim() !== video.title ||
    meta.description.trim() !== video.description ||
    meta.cover !== video.cover ||
    meta.tags.map((tag) => tag.tagId).join() !== video.tags.map((tag) => tag.tagId).join()
  );
}

/** Edits one of "my videos" in place: the upload form's own fields, saved with POST video/update. */
export default function VideoEditor({
  locale,
  t,
  video,
  onSaved,
  onCancel,
}: {
  locale: Locale;
  t: TFunction;
  video: MyVideo;
  onSaved: (backToReview: boolean) => void;
  onCancel: () => void;
}) {
  const [meta, setMeta] = useState<MetaValues>({
    title: video.title,
    description: video.description,
    category: video.videoCategory as VideoCategory,
    tags: video.tags,
    cover: video.cover,
  });
  const { busy, ready, error, errors, save } = useMetaSave(t, onSaved);
  const pending = usePendingWork();
  const reReview = video.state === 'approved' && publicChange(video, meta);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!meta.category || pending.check()) return;
    save(() =>
      updateVideo({
        videoId: video.videoId,
        title: meta.title,
        description: meta.description,
        image: meta.cover,
        videoCategory: meta.category as VideoCategory,
        videoTagList: meta.tags.map((tag) => tag.tagId),
      }),
    );
  };

  return (
    <form
      className="auth-form upload-form my-video-editor"
      onSubmit={submit}
      aria-label={t('myVideos.editTitle', { title: video.title })}
      data-video-editor
    >
      <FormFields ready={ready}>
        <pending.Provider>
          <VideoMetaFields
            locale={locale}
            t={t}
            values={meta}
            onChange={(changes) => setMeta((m) => ({ ...m, ...changes }))}
            errors={errors}
            posterUrl={video.poster}
          />
        </pending.Provider>
        <PendingNotice message={pending.message} />
        <EditorFooter
          t={t}
          approved={video.state === 'approved'}
          reReview={reReview}
          error={error}
          busy={busy}
          onCancel={onCancel}
          texts={{ warning: t('myVideos.reReviewWarning'), note: t('myVideos.reReviewNote') }}
        />
      </FormFields>
    </form>
  );
}
