import sharp from 'sharp';
import request from 'supertest';
import { CSRF_COOKIE, CSRF_REJECTED } from '@logovote/service-kit';
import { CreatedSession, LogoFilename, SessionView } from '@logovote/contracts';
import { PollModel, deletePollStatus, readPollStatus } from '@logovote/models';
import { jpeg, oversized, pixelBombPng, png, svg, webp, zipArchive } from '../../../packages/media-pipeline/test/fixtures';
import { backdatePoll, createPoll, objectNames } from '../../../tests/support/integration';
import { SESSION_NOT_FOUND } from '@logovote/contracts';
import { NO_LOGOS, TOO_MANY_LOGOS } from '../src/routes/sessions';
import { PUBLIC_ORIGIN, createSession, createdSession, insertVotes, sessionsTestbed } from './support';

const bed = sessionsTestbed('sessions');
const MB = 1024 * 1024;

/** Refused requests must leave nothing: no poll, no object. */
async function expectNothingStored() {
  expect(await PollModel.countDocuments()).toBe(0);
  expect(await objectNames(bed.store)).toEqual([]);
}

describe('POST /api/sessions', () => {
  afterEach(async () => {
    await PollModel.deleteMany({});
    await bed.store.client.removeObjects(bed.store.bucket, await objectNames(bed.store));
  });

  it('creates a poll from 4 logos of every type: 201 with the session, images in MinIO, metadata in MongoDB', async () => {
    const logos: [string, Buffer][] = [
      ['a.png', await png()],
      ['b.jpeg', await jpeg()],
      ['c.svg', svg()],
      ['d.webp', await webp()],
    ];
    const res = await createSession(bed.server, logos, '  Which one says "fresh"?  ');
    expect(res.status).toBe(201);
    const session = CreatedSession.parse(res.body);
    expect(session.votingUrl).toBe(`${PUBLIC_ORIGIN}/vote/${session.sessionId}`);
    expect(session.resultsUrl).toBe(`${PUBLIC_ORIGIN}/results/${session.sessionId}`);
    expect(session.feedbackPrompt).toBe('Which one says "fresh"?');
    expect(session.totalVotes).toBe(0);
    expect(session.logos.map((logo) => [logo.originalName, logo.filename.split('.')[1], logo.voteCount])).toEqual([
      ['a.png', 'png', 0],
      ['b.jpeg', 'jpg', 0],
      ['c.svg', 'svg', 0],
      ['d.webp', 'webp', 0],
    ]);
    expect(new Set(session.logos.map((logo) => logo.id)).size).toBe(4);
    expect(res.headers.location).toBe(`/api/sessions/${session.sessionId}`);
    const cookie = res.headers['set-cookie']?.[0] ?? '';
    expect(cookie).toMatch(new RegExp(`^${CSRF_COOKIE}=`));
    expect(cookie.toLowerCase()).toContain('httponly');
    expect(cookie.toLowerCase()).toContain('samesite=lax');

    const stored = await PollModel.findById(session.sessionId).lean();
    expect(stored).toMatchObject({ feedbackPrompt: 'Which one says "fresh"?' });
    expect(await readPollStatus(session.sessionId)).toMatchObject({ state: 'active', paymentPlan: 'free' });
    expect(stored?.logos.map((logo) => [logo.contentType, logo.size])).toEqual([
      ['image/png', logos[0]![1].length],
      ['image/jpeg', logos[1]![1].length],
      ['image/svg+xml', logos[2]![1].length],
      ['image/webp', logos[3]![1].length],
    ]);
    expect(await objectNames(bed.store)).toEqual(session.logos.map((logo) => logo.filename).sort());
    for (const [index, logo] of session.logos.entries()) {
      const stat = await bed.store.client.statObject(bed.store.bucket, logo.filename);
      expect(stat.size).toBe(logos[index]![1].length);
      expect(stat.metaData['content-type']).toBe(stored?.logos[index]?.contentType);
    }
  });

  it('names objects randomly with the extension of the real type, not the uploaded name', async () => {
    const session = await createdSession(bed.server, [
      ['../../secret.png', await jpeg()],
      ['logo.svg', await png()],
    ]);
    for (const logo of session.logos) expect(LogoFilename.safeParse(logo.filename).success).toBe(true);
    expect(session.logos.map((logo) => logo.filename.split('.')[1])).toEqual(['jpg', 'png']);
    expect(session.logos[0]?.originalName).toBe('secret.png');
  });

  it('stores no prompt when it is blank, and refuses one over the maximum length', async () => {
    const blank = await createdSession(bed.server, [['a.png', await png()]], '   ');
    expect(blank.feedbackPrompt).toBeUndefined();
    expect((await PollModel.findById(blank.sessionId).lean())?.feedbackPrompt).toBeUndefined();
    await PollModel.deleteMany({});
    await bed.store.client.removeObjects(bed.store.bucket, await objectNames(bed.store));

    const long = await createSession(bed.server, [['a.png', await png()]], 'x'.repeat(501));
    expect(long.status).toBe(400);
    expect(long.body).toEqual({ message: 'feedbackPrompt: feedbackPrompt must be at most 500 characters' });
    await expectNothingStored();
  });

  it.each([
    ['no logos', async () => createSession(bed.server, [], 'prompt'), 400, NO_LOGOS],
    [
      '5 logos',
      async () =>
        createSession(bed.server, await Promise.all([1, 2, 3, 4, 5].map(async (n) => [`${n}.png`, await png()] as [string, Buffer]))),
      400,
      TOO_MANY_LOGOS,
    ],
    [
      'a 5 MB file',
      async () =>
        createSession(bed.server, [
          ['small.png', await png()],
          ['big.png', oversized(5 * MB)],
        ]),
      413,
      '"big.png" is larger than 2 MB',
    ],
    [
      'a .png that is really a zip',
      async () =>
        createSession(bed.server, [
          ['ok.png', await png()],
          ['logo.png', zipArchive()],
        ]),
      415,
      '"logo.png" is not a PNG, JPEG, SVG or WebP image',
    ],
    [
      'a 20000×20000 PNG',
      async () => createSession(bed.server, [['bomb.png', pixelBombPng()]]),
      422,
      '"bomb.png" is 20000×20000 pixels; logos may have at most 25 million pixels',
    ],
    [
      'a JSON body',
      async () => request(bed.server).post('/api/sessions').send({ logos: [] }),
      415,
      'Content-Type must be multipart/form-data',
    ],
  ])('refuses %s with a clear message and stores nothing', async (_, send, status, message) => {
    const res = await send();
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ message });
    await expectNothingStored();
  });

  it.each([
    ['<script>', '<script>alert(document.cookie)</script><rect width="10" height="10"/>', /<script> element/],
    ['onload', '<rect width="10" height="10" onload="alert(1)"/>', /event handler attribute onload/],
    [
      'foreignObject',
      '<foreignObject width="10" height="10"><p xmlns="http://www.w3.org/1999/xhtml">x</p></foreignObject>',
      /<foreignObject> element/,
    ],
    ['an external reference', '<image href="https://tracker.example/pixel.png" width="1" height="1"/>', /external reference href/],
  ])('refuses an SVG with %s (422) and stores nothing', async (_, body, problem) => {
    const res = await createSession(bed.server, [
      ['clean.svg', svg()],
      ['evil.svg', svg(body)],
    ]);
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(
      /^"evil\.svg" was refused: SVG logos must not contain scripts, event handlers, foreignObject or external references/,
    );
    expect(res.body.message).toMatch(problem);
    await expectNothingStored();
  });
});

describe('GET /api/sessions/:sessionId', () => {
  it('returns the logos with current counts from the votes, the total, the prompt and a token bound to the cookie', async () => {
    const created = await createdSession(
      bed.server,
      [
        ['a.png', await png()],
        ['b.png', await png(32, 32)],
      ],
      'Pick one',
    );
    const [a, b] = created.logos;
    await insertVotes(created.sessionId, [a!.id, b!.id, b!.id]);
    await insertVotes('AAAAAAAAAAAAAAAA', [a!.id]);
    const agent = request.agent(bed.server);
    const res = await agent.get(`/api/sessions/${created.sessionId}`);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const view = SessionView.parse(res.body);
    expect(view).toEqual({
      sessionId: created.sessionId,
      logos: [
        { ...a, voteCount: 1 },
        { ...b, voteCount: 2 },
      ],
      feedbackPrompt: 'Pick one',
      totalVotes: 3,
      csrfToken: expect.any(String),
    });
    // The same browser (cookie) gets the same token; another browser gets another.
    expect((await agent.get(`/api/sessions/${created.sessionId}`)).body.csrfToken).toBe(view.csrfToken);
    expect((await request(bed.server).get(`/api/sessions/${created.sessionId}`)).body.csrfToken).not.toBe(view.csrfToken);
  });

  it("answers each logo's backdrop from the appearance stored at upload, and light for a logo stored without one", async () => {
    const disc = (fill: string) =>
      sharp(
        Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><circle cx="32" cy="32" r="20" fill="${fill}"/></svg>`),
      )
        .png()
        .toBuffer();
    const created = await createdSession(bed.server, [
      ['white.png', await disc('#ffffff')],
      ['black.png', await disc('#000000')],
    ]);
    expect(created.logos.map((logo) => logo.backdrop)).toEqual(['dark', 'light']);
    const stored = await PollModel.findById(created.sessionId).lean();
    expect(stored?.logos[0]?.appearance).toMatchObject({
      transparent: true,
      darkLuminance: expect.any(Number),
      lightLuminance: expect.any(Number),
    });

    await PollModel.updateOne({ _id: created.sessionId }, { $unset: { 'logos.0.appearance': '' } });
    const res = await request(bed.server).get(`/api/sessions/${created.sessionId}`);
    expect(SessionView.parse(res.body).logos.map((logo) => logo.backdrop)).toEqual(['light', 'light']);
  });

  it.each([
    ['an unknown id', 'AAAAAAAAAAAAAAAA'],
    ['a malformed id', 'not-a-session'],
    ['an id with odd characters', '%24where%3A1'],
  ])('answers 404 with a message for %s', async (_, id) => {
    const res = await request(bed.server).get(`/api/sessions/${id}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: SESSION_NOT_FOUND });
  });

  it('does not show a poll that is still being created or is being deleted', async () => {
    for (const state of ['creating', 'deleting'] as const) {
      const { sessionId } = await createPoll({ state });
      const res = await request(bed.server).get(`/api/sessions/${sessionId}`);
      expect(res.status).toBe(404);
    }
  });
});

describe('PUT /api/sessions/:sessionId/plan', () => {
  it('records the chosen plan with the anti-forgery token, and counts as activity', async () => {
    const agent = request.agent(bed.server);
    const created = await createdSession(bed.server, [['a.png', await png()]]);
    const lookup = await agent.get(`/api/sessions/${created.sessionId}`);
    await backdatePoll(created.sessionId, new Date(0), new Date());

    const res = await agent
      .put(`/api/sessions/${created.sessionId}/plan`)
      .set('X-CSRF-Token', lookup.body.csrfToken)
      .send({ paymentPlan: 'bulk' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ sessionId: created.sessionId, paymentPlan: 'bulk' });
    const status = await readPollStatus(created.sessionId);
    expect(status.paymentPlan).toBe('bulk');
    expect(status.lastActivityAt.getTime()).toBeGreaterThan(0);
  });

  it('uses the token issued at creation together with its cookie', async () => {
    const agent = request.agent(bed.server);
    const created = (await agent.post('/api/sessions').attach('logos', await png(), 'a.png')).body as CreatedSession;
    const res = await agent
      .put(`/api/sessions/${created.sessionId}/plan`)
      .set('X-CSRF-Token', created.csrfToken)
      .send({ paymentPlan: 'paid' });
    expect(res.status).toBe(200);
  });

  it('refuses a request without a valid token (403), a plan that does not exist (400), and an unknown poll (404)', async () => {
    const agent = request.agent(bed.server);
    const created = (await agent.post('/api/sessions').attach('logos', await png(), 'a.png')).body as CreatedSession;
    const forged = await request(bed.server)
      .put(`/api/sessions/${created.sessionId}/plan`)
      .set('X-CSRF-Token', created.csrfToken)
      .send({ paymentPlan: 'paid' });
    expect(forged.status).toBe(403);
    expect(forged.body).toEqual({ message: CSRF_REJECTED });

    const wrongPlan = await agent
      .put(`/api/sessions/${created.sessionId}/plan`)
      .set('X-CSRF-Token', created.csrfToken)
      .send({ paymentPlan: 'gold' });
    expect(wrongPlan.status).toBe(400);
    expect(wrongPlan.body.message).toMatch(/^paymentPlan: /);

    // As a deletion ends: the poll, then its status.
    await PollModel.deleteOne({ _id: created.sessionId });
    await deletePollStatus(created.sessionId);
    const gone = await agent
      .put(`/api/sessions/${created.sessionId}/plan`)
      .set('X-CSRF-Token', created.csrfToken)
      .send({ paymentPlan: 'paid' });
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ message: SESSION_NOT_FOUND });
  });
});
