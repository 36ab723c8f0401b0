import { ModerationSuite, ModerationUnavailable, type ModerationProvider, type ModerationVerdict } from '../src';

const image = { data: Buffer.alloc(3 * 4 * 4), width: 4, height: 4 };

/** A check with a fixed verdict: the suite's combining is what is under test, not a model. */
function check(name: string, verdict: ModerationVerdict | Error): ModerationProvider {
  return {
    name,
    warmUp: () => Promise.resolve(),
    moderate: () => (verdict instanceof Error ? Promise.reject(verdict) : Promise.resolve(verdict)),
  };
}

const pass = (reason: string) => ({ isValid: true, reason, rawResponse: { said: reason } });
const refuse = (reason: string) => ({ isValid: false, reason, rawResponse: { said: reason } });

describe('the moderation suite', () => {
  it('passes an image every check passes, with every all-clear and each verdict in the raw response', async () => {
    const suite = new ModerationSuite([
      { check: 'nudity', provider: check('nsfwjs', pass('No nudity detected')) },
      { check: 'faces', provider: check('face-api', pass('No photographic face')) },
    ]);
    const verdict = await suite.moderate(image);
    expect(verdict).toMatchObject({ isValid: true, reason: 'No nudity detected; No photographic face' });
    expect(verdict.rawResponse).toMatchObject({
      provider: 'suite',
      refusedBy: [],
      checks: [
        { check: 'nudity', provider: 'nsfwjs', isValid: true, reason: 'No nudity detected', rawResponse: { said: 'No nudity detected' } },
        { check: 'faces', provider: 'face-api', isValid: true, reason: 'No photographic face' },
      ],
    });
    expect(suite.name).toBe('nsfwjs+face-api');
  });

  it('refuses an image any check refuses, naming only the refusing checks in the reason', async () => {
    const suite = new ModerationSuite([
      { check: 'nudity', provider: check('nsfwjs', pass('No nudity detected')) },
      { check: 'faces', provider: check('face-api', refuse('A photographic human face was found')) },
      { check: 'brands', provider: check('ocr', refuse('The logo reads "Google"')) },
    ]);
    const verdict = await suite.moderate(image);
    expect(verdict).toMatchObject({ isValid: false, reason: 'A photographic human face was found; The logo reads "Google"' });
    expect(verdict.rawResponse).toMatchObject({ refusedBy: ['faces', 'brands'] });
  });

  it('gives no verdict when one check cannot (the upload is refused with 503, not let through)', async () => {
    const suite = new ModerationSuite([
      { check: 'nudity', provider: check('nsfwjs', pass('No nudity detected')) },
      { check: 'hosted', provider: check('http', new ModerationUnavailable(new Error('timeout'))) },
    ]);
    await expect(suite.moderate(image)).rejects.toMatchObject({ status: 503 });
  });

  it('needs at least one check', () => {
    expect(() => new ModerationSuite([])).toThrow(/at least one check/);
  });
});
