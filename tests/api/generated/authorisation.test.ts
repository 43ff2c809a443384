/**
 * The authorisation matrix, generated from the policy table × every endpoint of the route table ×
 * {guest, member, banned member, administrator, root}, plus "another member's resource" for every
 * endpoint whose rule looks at the resource. Each cell's expected answer comes from the policy:
 * a refusal with its status and code, or no refusal by the policy (the call may still fail on its
 * input or its resource, but never with the policy's 401 or 403).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BACKENDS, startTestServer, type TestServer } from '../harness.ts';
import { insertAudio, insertPhoto, insertVideo, member, tusCreate } from '../media-helpers.ts';
import { answerText, API_ROUTES, plausibleInput, requestOf } from './route-cases.ts';
import { POLICY, refusal, type Action, type Actor, type Rule } from '#lib/policy/policy.ts';
import { splitRouteKey, type RouteDef } from '#lib/api/route.ts';
import { ERROR_STATUS } from '#lib/api/errors.ts';

const PERSONAS = {
  guest: null,
  member: ['user'],
  banned: ['blocked'],
  administrator: ['administrator'],
  root: ['root'],
} as const;
type Persona = keyof typeof PERSONAS;
const POLICY_REFUSALS = new Set(['UNAUTHORIZED', 'USER_BLOCKED', 'FORBIDDEN']);

interface Cell {
  status: number;
  code?: string;
}

/** The request a persona sends: the endpoint's plausible input, the tus headers for uploads. */
function probe(
  route: string,
  def: RouteDef,
  baseUrl: string,
  cookie: string | undefined,
  path?: string,
  input?: Record<string, unknown>,
) {
  const [method] = splitRouteKey(route);
  const body = input ?? plausibleInput(def);
  const headers: Record<string, string> = {
    ...(cookie ? { Cookie: cookie } : {}),
    'X-Forwarded-For': `10.9.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}`,
  };
  if (def.raw === 'tus')
    Object.assign(
      headers,
      { 'Tus-Resumable': '1.0.0', 'Upload-Length': '10', 'Upload-Metadata': 'name Y2xpcC5tcDQ=' },
      method === 'PATCH' ? { 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' } : {},
    );
  const c =
    method === 'GET'
      ? { route, query: Object.fromEntries(Object.entries(body ?? {}).map(([k, v]) => [k, String(v)])) }
      : {
          route,
          body: def.raw ? undefined : JSON.stringify(body ?? {}),
          contentType: def.raw ? undefined : 'application/json',
        };
  const { url, init } = requestOf(baseUrl, c, headers);
  return fetch(path ? url.replace(/\/api\/.*?(\?|$)/, `/api/${path}$1`) : url, init);
}

async function cellOf(response: Response): Promise<Cell> {
  const text = await answerText(response);
  try {
    return { status: response.status, code: (JSON.parse(text) as { code?: string }).code };
  } catch {
    return { status: response.status };
  }
}

describe.each(BACKENDS)('authorisation matrix on %s', (backend) => {
  let server: TestServer;
  const cookies = {} as Record<Persona, string | undefined>;
  let cells = 0;
  beforeAll(async () => {
    server = await startTestServer(backend, { env: { TRUST_PROXY: '1' } });
  });
  afterAll(async () => {
    console.log(
      `authorisation matrix on ${backend}: ${cells} cells, ${API_ROUTES.length} of ${API_ROUTES.length} endpoints covered`,
    );
    await server?.close();
  });

  test.each(API_ROUTES.map(([route]) => route))('%s', async (route) => {
    const def = API_ROUTES.find(([key]) => key === route)![1];
    // Fresh accounts per endpoint: a call may log one out or change its roles.
    for (const persona of Object.keys(PERSONAS) as Persona[]) {
      const roles = PERSONAS[persona];
      cookies[persona] = roles
        ? await member(server, `${persona}${Math.random().toString(36).slice(2, 9)}`, [...roles])
        : undefined;
    }
    const mismatches: string[] = [];
    for (const persona of Object.keys(PERSONAS) as Persona[]) {
      const roles = PERSONAS[persona];
      const actor: Actor | null = roles ? { uid: 1, roles } : null;
      const expected = refusal(actor, def.permission, undefined);
      const cell = await cellOf(await probe(route, def, server.baseUrl, cookies[persona], resourcePath(route)));
      cells += 1;
      if (cell.status >= 500) mismatches.push(`${persona}: ${cell.status}`);
      else if (expected && (cell.status !== ERROR_STATUS[expected] || (cell.code !== expected && !isHead(route))))
        mismatches.push(`${persona}: expected ${ERROR_STATUS[expected]} ${expected}, got ${cell.status} ${cell.code}`);
      else if (
        !expected &&
        POLICY_REFUSALS.has(cell.code ?? '') &&
        (cell.status === 401 || !resourceRule(def.permission))
      ) {
        mismatches.push(`${persona}: the policy allows it, got ${cell.status} ${cell.code}`);
      }
    }
    // Another member's resource: the rule that looks at the resource refuses it.
    const rule: Rule = POLICY[def.permission];
    if (rule.resource) {
      const fixture = RESOURCE_FIXTURES[def.permission];
      expect(fixture, `no fixture makes another member's resource for ${def.permission}`).toBeDefined();
      const { input, path, actor } = await fixture!(server);
      const cell = await cellOf(await probe(route, def, server.baseUrl, actor, path, input));
      cells += 1;
      if (cell.status !== 403 || (cell.code !== 'FORBIDDEN' && !isHead(route)))
        mismatches.push(`another member's resource: expected 403 FORBIDDEN, got ${cell.status} ${cell.code}`);
    }
    expect(mismatches).toEqual([]);
  });
});

/** A HEAD answer has no body to carry a code: its status says it. */
const isHead = (route: string) => route.startsWith('HEAD ');
const resourceRule = (action: Action) => !!(POLICY[action] as Rule).resource;
/** Paths with parameters (tus) get a made-up id: the policy answers before the resource is looked up. */
const resourcePath = (route: string) =>
  route.includes(':') ? splitRouteKey(route)[1].replace(/:\w+/g, '0123456789abcdef0123456789abcdef') : undefined;

type Fixture = (server: TestServer) => Promise<{ input?: Record<string, unknown>; path?: string; actor: string }>;
const memberUid = (cookie: string) => Number(/uid=(\d+)/.exec(cookie)![1]);
const someone = (server: TestServer, label: string, roles?: string[]) =>
  member(server, `${label}${Math.random().toString(36).slice(2, 9)}`, roles);

/** For each action with a resource rule: a resource of one member, and another who tries it. */
const RESOURCE_FIXTURES: Partial<Record<Action, Fixture>> = {
  'comment.deleteOwn': async (server) => {
    const owner = await someone(server, 'author');
    const videoId = await insertVideo(server, owner, 60_000);
    const emitted = await (
      await server.api('video/comment/emit', {
        method: 'POST',
        headers: { Cookie: owner, 'Content-Type': 'application/json' },
        body: JSON.stringify({ videoId, text: 'mine' }),
      })
    ).json();
    return { input: { videoId, commentRoute: emitted.comment.commentRoute }, actor: await someone(server, 'other') };
  },
  'media.status': async (server) => {
    const owner = await someone(server, 'uploader');
    const videoId = await insertVideo(server, owner, 60_000, 'pending');
    const part = await server.db
      .selectFrom('video_parts')
      .select('media_id')
      .where('video_id', '=', videoId)
      .executeTakeFirstOrThrow();
    return { input: { mediaId: part.media_id }, actor: await someone(server, 'other') };
  },
  'video.delete': async (server) => {
    const owner = await someone(server, 'uploader');
    return { input: { videoId: await insertVideo(server, owner, 60_000) }, actor: await someone(server, 'other') };
  },
  'audio.delete': async (server) => {
    const owner = await someone(server, 'uploader');
    return { input: { audioId: await insertAudio(server, owner, 60_000) }, actor: await someone(server, 'other') };
  },
  'photo.delete': async (server) => {
    const owner = await someone(server, 'uploader');
    return { input: { photoId: await insertPhoto(server, owner) }, actor: await someone(server, 'other') };
  },
  'video.edit': async (server) => {
    const owner = await someone(server, 'uploader');
    return {
      input: { videoId: await insertVideo(server, owner, 60_000), title: 'not mine' },
      actor: await someone(server, 'other'),
    };
  },
  'audio.edit': async (server) => {
    const owner = await someone(server, 'uploader');
    return {
      input: { audioId: await insertAudio(server, owner, 60_000), title: 'not mine' },
      actor: await someone(server, 'other'),
    };
  },
  'upload.resume': async (server) => {
    const owner = await someone(server, 'uploader');
    const created = await tusCreate(server, owner, 10);
    return { path: created.headers.get('location')!.replace(/^.*\/api\//, ''), actor: await someone(server, 'other') };
  },
  'image.upload': async (server) => {
    // A signed avatar address of one member, changed to name another: the signature no longer holds.
    const owner = await someone(server, 'owner');
    const other = await someone(server, 'other');
    const { result } = await (await server.api('user/avatar/preUpload', { headers: { Cookie: owner } })).json();
    const url = new URL(result.signedUrl);
    url.searchParams.set('uid', String(memberUid(other)));
    return { path: `images/upload${url.search}`, actor: other };
  },
  // A public collection of one member (a private one would be not found, 404, for the other):
  // one input for every call of the action (update, addVideo, reorder; delete, removeVideo).
  'collection.edit': (server) => anotherMembersCollection(server),
  'collection.clean': (server) => anotherMembersCollection(server),
  // A comment by one member under another's upload; a third (neither uploader nor staff) tries to moderate it.
  'comment.pin': (server) => commentUnderAnothersUpload(server),
  'comment.deleteUnderOwnUpload': (server) => commentUnderAnothersUpload(server),
  // One member's video with a subtitle track; another tries to add, remove or import into it.
  'subtitle.edit': async (server) => {
    const owner = await someone(server, 'uploader');
    const videoId = await insertVideo(server, owner, 60_000);
    const text = 'WEBVTT\n\n00:00.000 --> 00:01.000\nmine\n';
    const created = await (
      await server.api('video/subtitle/create', {
        method: 'POST',
        headers: { Cookie: owner, 'Content-Type': 'application/json' },
        body: JSON.stringify({ videoId, part: 1, language: 'en', label: 'English', format: 'vtt', text }),
      })
    ).json();
    return {
      input: {
        videoId,
        part: 1,
        language: 'ja',
        label: 'not mine',
        format: 'vtt',
        text,
        id: created.subtitle.id,
        xml: '<i></i>',
      },
      actor: await someone(server, 'other'),
    };
  },
  'user.roles': async (server) => {
    // An administrator may not touch another administrator.
    const target = await someone(server, 'admin', ['administrator']);
    return {
      input: { uid: memberUid(target), newRoles: ['user'] },
      actor: await someone(server, 'admin', ['administrator']),
    };
  },
};

async function commentUnderAnothersUpload(server: TestServer) {
  const uploader = await someone(server, 'uploader');
  const writer = await someone(server, 'writer');
  const videoId = await insertVideo(server, uploader, 60_000);
  const emitted = await (
    await server.api('video/comment/emit', {
      method: 'POST',
      headers: { Cookie: writer, 'Content-Type': 'application/json' },
      body: JSON.stringify({ videoId, text: 'a comment' }),
    })
  ).json();
  return {
    input: {
      videoId,
      mediaType: 'video',
      id: emitted.comment.id,
      pinned: true,
      commentRoute: emitted.comment.commentRoute,
    },
    actor: await someone(server, 'other'),
  };
}

async function anotherMembersCollection(server: TestServer) {
  const owner = await someone(server, 'collector');
  const videoId = await insertVideo(server, owner, 60_000);
  const created = await (
    await server.api('collection/create', {
      method: 'POST',
      headers: { Cookie: owner, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'mine', visibility: 'public', videoId }),
    })
  ).json();
  const { collectionId } = created.collection;
  return {
    input: { collectionId, videoId, videoIds: [videoId], title: 'theirs now' },
    actor: await someone(server, 'other'),
  };
}
