import request from 'supertest';
import { CreatedSession, SessionView, voterLogoOrder } from '@logovote/contracts';
import { PollModel } from '@logovote/models';
import { png } from '../../../packages/media-pipeline/test/fixtures';
import { objectNames } from '../../../tests/support/integration';
import { sessionsTestbed } from './support';

const bed = sessionsTestbed('fair-order');
const SEED = '0123456789abcdef0123456789abcdef';

async function createPoll(logoOrder?: string): Promise<request.Response> {
  let req = request(bed.server).post('/api/sessions');
  if (logoOrder !== undefined) req = req.field('logoOrder', logoOrder);
  for (let n = 0; n < 4; n++) req = req.attach('logos', await png(16 + n, 16), `logo-${n}.png`);
  return req;
}

describe('fair order (beyond the spec): each voter their own order of a shuffled poll', () => {
  afterAll(async () => {
    await PollModel.deleteMany({});
    await bed.store.client.removeObjects(bed.store.bucket, await objectNames(bed.store));
  });

  it("keeps the spec's poll when creation does not ask: no order fields, upload order, for any voter", async () => {
    const created = CreatedSession.parse((await createPoll()).body);
    expect(created).not.toHaveProperty('logoOrder');
    expect((await PollModel.findById(created.sessionId).lean())?.logoOrder).toBeUndefined();
    const view = await request(bed.server).get(`/api/sessions/${created.sessionId}?voter=${SEED}`);
    expect(view.status).toBe(200);
    expect(view.body).not.toHaveProperty('logoOrder');
    expect(view.body).not.toHaveProperty('voterOrder');
    expect(SessionView.parse(view.body).logos.map((logo) => logo.originalName)).toEqual([
      'logo-0.png',
      'logo-1.png',
      'logo-2.png',
      'logo-3.png',
    ]);
  });

  it("keeps 'fixed' as the upload order and stores nothing for it", async () => {
    const created = CreatedSession.parse((await createPoll('fixed')).body);
    expect(created).not.toHaveProperty('logoOrder');
    expect((await PollModel.findById(created.sessionId).lean())?.logoOrder).toBeUndefined();
  });

  it("stores 'shuffled', keeps the logos in upload order, and answers a voter's order only when asked", async () => {
    const res = await createPoll('shuffled');
    expect(res.status).toBe(201);
    const created = CreatedSession.parse(res.body);
    expect(created.logoOrder).toBe('shuffled');
    const ids = created.logos.map((logo) => logo.id);

    const plain = SessionView.parse((await request(bed.server).get(`/api/sessions/${created.sessionId}`)).body);
    expect(plain.logoOrder).toBe('shuffled');
    expect(plain.voterOrder).toBeUndefined();
    expect(plain.logos.map((logo) => logo.id)).toEqual(ids);

    const forVoter = SessionView.parse((await request(bed.server).get(`/api/sessions/${created.sessionId}?voter=${SEED}`)).body);
    expect(forVoter.logos.map((logo) => logo.id)).toEqual(ids);
    expect(forVoter.voterOrder).toEqual(voterLogoOrder(created.sessionId, SEED, ids));
  });

  it.each([
    ['an unknown order', 'random'],
    ['an empty order', ''],
  ])('refuses %s with 400 and stores nothing', async (_, logoOrder) => {
    const before = await PollModel.countDocuments();
    const res = await createPoll(logoOrder);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: expect.stringContaining('logoOrder') });
    expect(await PollModel.countDocuments()).toBe(before);
  });

  it.each([
    ['too short', '0123'],
    ['not hexadecimal', 'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz'],
    ['repeated', `${SEED}&voter=${SEED}`],
  ])('refuses a voter seed that is %s with 400', async (_, voter) => {
    const created = CreatedSession.parse((await createPoll('shuffled')).body);
    const res = await request(bed.server).get(`/api/sessions/${created.sessionId}?voter=${voter}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: expect.any(String) });
  });
});
