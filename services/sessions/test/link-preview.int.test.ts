import request from 'supertest';
import sharp from 'sharp';
import { DeletedPoll, PREVIEW_IMAGE_HEIGHT, PREVIEW_IMAGE_WIDTH, SESSION_NOT_FOUND, previewImagePath } from '@logovote/contracts';
import { recordPollDeleting } from '@logovote/models';
import { jpeg, png, svg, webp } from '../../../packages/media-pipeline/test/fixtures';
import { previewObjectName } from '../src/polls/object-store';
import { DEFAULT_SVG_SETTINGS, createUploadPipeline } from '@logovote/media-pipeline';
import { objectNames } from '../../../tests/support/integration';
import { PUBLIC_ORIGIN, createdSession, sessionsServer, sessionsTestbed } from './support';

const bed = sessionsTestbed('link-preview');

/** Reads a PNG answer's bytes (supertest leaves image bodies as buffers only when asked). */
const pngOf = (path: string) =>
  request(bed.server)
    .get(path)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });

/** The content of each meta tag of a fragment, entities decoded as a browser would. */
function metaTags(html: string): Record<string, string> {
  const decode = (value: string) =>
    value.replace(/&(lt|gt|quot|amp|#39);/g, (_, name: string) => ({ lt: '<', gt: '>', quot: '"', amp: '&', '#39': "'" })[name]!);
  return Object.fromEntries(
    [...html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)" \/>/g)].map(([, key, value]) => [key!, decode(value!)]),
  );
}

describe('GET /api/sessions/{id}/preview.png', () => {
  it('makes a 1200×630 PNG of the logos once, keeps it in the store, and answers it with an ETag and Cache-Control', async () => {
    const poll = await createdSession(
      bed.server,
      [
        ['a.png', await png()],
        ['b.jpeg', await jpeg()],
        ['c.svg', svg()],
        ['d.webp', await webp()],
      ],
      'Which one says "fresh" & <bold>?',
    );
    expect(await objectNames(bed.store)).not.toContain(previewObjectName(poll.sessionId));

    const first = await pngOf(previewImagePath(poll.sessionId));
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('image/png');
    expect(first.headers['cache-control']).toBe('public, max-age=300');
    expect(first.headers.etag).toMatch(/^"[^"]+"$/);
    const image = first.body as Buffer;
    expect(await sharp(image).metadata()).toMatchObject({ format: 'png', width: PREVIEW_IMAGE_WIDTH, height: PREVIEW_IMAGE_HEIGHT });
    expect(await objectNames(bed.store)).toContain(previewObjectName(poll.sessionId));

    // The second answer is the stored object: replaced in the store, the new bytes are what comes back.
    const marker = await sharp({ create: { width: 1200, height: 630, channels: 3, background: '#ff00ff' } })
      .png()
      .toBuffer();
    await bed.store.client.putObject(bed.store.bucket, previewObjectName(poll.sessionId), marker, marker.length, {
      'Content-Type': 'image/png',
    });
    const second = await pngOf(previewImagePath(poll.sessionId));
    expect(second.status).toBe(200);
    expect(Buffer.compare(second.body as Buffer, marker)).toBe(0);

    const revalidated = await request(bed.server).get(previewImagePath(poll.sessionId)).set('If-None-Match', second.headers.etag!);
    expect(revalidated.status).toBe(304);
  });

  it('gives every one of several first requests the image, and stores one object', async () => {
    const poll = await createdSession(bed.server, [
      ['a.png', await png()],
      ['b.png', await png(64, 64, { r: 200, g: 30, b: 30 })],
    ]);
    const answers = await Promise.all([1, 2, 3, 4].map(() => pngOf(previewImagePath(poll.sessionId))));
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(await sharp(answer.body as Buffer).metadata()).toMatchObject({ width: PREVIEW_IMAGE_WIDTH, height: PREVIEW_IMAGE_HEIGHT });
    }
    expect((await objectNames(bed.store)).filter((name) => name === previewObjectName(poll.sessionId))).toHaveLength(1);
  });

  it('is deleted with its poll, and a deleted poll has no preview', async () => {
    const poll = await createdSession(bed.server, [
      ['a.png', await png()],
      ['b.svg', svg()],
    ]);
    expect((await pngOf(previewImagePath(poll.sessionId))).status).toBe(200);

    const deletion = await request(bed.server).delete(`/api/admin/polls/${poll.sessionId}`);
    expect(deletion.status).toBe(200);
    // Two logos and the preview.
    expect(DeletedPoll.parse(deletion.body).deleted.objects).toBe(3);
    expect(await objectNames(bed.store)).not.toContain(previewObjectName(poll.sessionId));

    const gone = await request(bed.server).get(previewImagePath(poll.sessionId));
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ message: SESSION_NOT_FOUND });
  });

  it('answers 404 JSON for a poll being deleted, with the image still stored', async () => {
    const poll = await createdSession(bed.server, [
      ['a.png', await png()],
      ['b.png', await png()],
    ]);
    expect((await pngOf(previewImagePath(poll.sessionId))).status).toBe(200);
    await recordPollDeleting(poll.sessionId);
    const answer = await request(bed.server).get(previewImagePath(poll.sessionId));
    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
  });

  it.each(['AAAAAAAAAAAAAAAA', '..%2F..%2Fx', 'a%22b%3Cc', 'A'.repeat(65), '%00'])('answers 404 JSON for the id %s', async (id) => {
    const answer = await request(bed.server).get(`/api/sessions/${id}/preview.png`);
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ message: SESSION_NOT_FOUND });
  });

  it('draws SVG logos within the configured cost limits, as uploads are checked: raised limits let the preview draw what upload accepted', async () => {
    const svg = { ...DEFAULT_SVG_SETTINGS, SVG_MAX_USES: DEFAULT_SVG_SETTINGS.SVG_MAX_USES * 2 };
    const raised = sessionsServer(bed.store, createUploadPipeline({ moderation: bed.pipeline.moderation, svg }), undefined, svg);
    try {
      const uses = DEFAULT_SVG_SETTINGS.SVG_MAX_USES + 10;
      const manyUses = Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><defs><rect id="d" width="1" height="1" fill="#236"/></defs>${Array.from(
          { length: uses },
          (_, index) => `<use href="#d" x="${index % 100}" y="${Math.floor(index / 100)}"/>`,
        ).join('')}</svg>`,
      );
      const poll = await createdSession(raised, [['many.svg', manyUses]]);
      // The default limits would refuse this logo: the preview follows the service's own.
      const answer = await request(raised).get(previewImagePath(poll.sessionId));
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toBe('image/png');
    } finally {
      await new Promise((resolve) => raised.close(resolve));
    }
  });
});

describe('GET /api/sessions/{id}/link-preview', () => {
  it("gives the page's Open Graph and Twitter card tags with the question, HTML-escaped", async () => {
    const question = 'Best <logo> for "Bread & Butter"?';
    const poll = await createdSession(
      bed.server,
      [
        ['a.png', await png()],
        ['b.png', await png()],
        ['c.png', await png()],
      ],
      question,
    );
    const vote = await request(bed.server).get(`/api/sessions/${poll.sessionId}/link-preview?page=vote`);
    expect(vote.status).toBe(200);
    expect(vote.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(vote.text).not.toMatch(/<logo>|"Bread/);
    const image = `${PUBLIC_ORIGIN}/api/sessions/${poll.sessionId}/preview.png`;
    expect(metaTags(vote.text)).toEqual({
      'og:type': 'website',
      'og:site_name': 'LogoVote',
      'og:title': question,
      'og:description': 'Vote anonymously for your favourite of 3 logos (a, b, and c) on LogoVote. No account needed.',
      'og:url': `${PUBLIC_ORIGIN}/vote/${poll.sessionId}`,
      'og:image': image,
      'og:image:type': 'image/png',
      'og:image:width': '1200',
      'og:image:height': '630',
      'og:image:alt': 'The 3 logos of this LogoVote poll: a, b, and c',
      'twitter:card': 'summary_large_image',
      'twitter:title': question,
      'twitter:description': 'Vote anonymously for your favourite of 3 logos (a, b, and c) on LogoVote. No account needed.',
      'twitter:image': image,
      'twitter:image:alt': 'The 3 logos of this LogoVote poll: a, b, and c',
    });

    const results = metaTags((await request(bed.server).get(`/api/sessions/${poll.sessionId}/link-preview?page=results`)).text);
    expect(results['og:url']).toBe(`${PUBLIC_ORIGIN}/results/${poll.sessionId}`);
    expect(results['og:description']).toBe('See how people voted on 3 logos (a, b, and c) on LogoVote: votes, percentages and the winner.');
  });

  it('has a default title for a poll without a question', async () => {
    const poll = await createdSession(bed.server, [
      ['a.png', await png()],
      ['b.png', await png()],
    ]);
    const tags = metaTags((await request(bed.server).get(`/api/sessions/${poll.sessionId}/link-preview?page=vote`)).text);
    expect(tags['og:title']).toBe('Which logo do you like best?');
  });

  it('answers 400 JSON for a page that is not vote or results, and 404 JSON for an unknown poll', async () => {
    const poll = await createdSession(bed.server, [['a.png', await png()]]);
    for (const query of ['', '?page=admin', '?page=vote&page=results']) {
      const answer = await request(bed.server).get(`/api/sessions/${poll.sessionId}/link-preview${query}`);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ message: expect.any(String) });
    }
    const unknown = await request(bed.server).get('/api/sessions/AAAAAAAAAAAAAAAA/link-preview?page=vote');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: SESSION_NOT_FOUND });
  });
});
