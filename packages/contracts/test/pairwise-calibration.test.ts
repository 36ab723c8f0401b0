import { readFileSync } from 'node:fs';
import path from 'node:path';

import { calibratePairs, pairCalibrationReport, type PairCalibration } from './pairwise-calibration';

describe('the head-to-head verdict’s calibration (docs/confidence.md, "Head-to-head")', () => {
  let calibration: PairCalibration;
  beforeAll(() => {
    calibration = calibratePairs();
  });

  it('calls at most 5% of the polls clear where voters have no real preference, at every number of voters', () => {
    for (const { scenario, byVoters } of calibration)
      if (scenario.favourite === null) for (const tally of byVoters) expect(tally.clear / tally.polls).toBeLessThanOrEqual(0.05);
  });

  it("names the wrong logo in at most 5% of its 'clear favourite' calls where there is a favourite", () => {
    for (const { scenario, byVoters } of calibration) {
      if (scenario.favourite === null) continue;
      const clear = byVoters.reduce((sum, tally) => sum + tally.clear, 0);
      const wrong = byVoters.reduce((sum, tally) => sum + tally.wrongClear, 0);
      expect(clear).toBeGreaterThan(0);
      expect(wrong / clear).toBeLessThanOrEqual(0.05);
    }
  });

  it('says there is no single favourite in most polls whose preferences go round in a circle, from 50 voters on', () => {
    const circle = calibration.find(({ scenario }) => scenario.name === 'a circle')!;
    for (const tally of circle.byVoters.slice(2)) expect(tally.circle / tally.polls).toBeGreaterThanOrEqual(0.9);
  });

  it('is reported in docs/confidence.md as simulated', () => {
    const doc = readFileSync(path.join(__dirname, '../../../docs/confidence.md'), 'utf8').replace(/ +/g, ' ');
    for (const line of pairCalibrationReport(calibration).split('\n').slice(2)) expect(doc).toContain(line.replace(/ +/g, ' '));
  });
});
