import { readFileSync } from 'node:fs';
import path from 'node:path';

import { OUT_OF_RACE_CHANCE } from '../src/verdict';
import { calibrate, calibrationReport, wrongShare, type Calibration } from './verdict-calibration';

/** Markdown tables compared cell by cell, whatever the padding prettier gives them. */
const cells = (markdown: string) =>
  markdown
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) => line.split('|').map((cell) => cell.trim().replace(/^-+$/, '-')));

describe('the verdict’s calibration (docs/confidence.md)', () => {
  let calibration: Calibration;
  beforeAll(() => {
    calibration = calibrate();
  });

  it("names the wrong logo in at most 5% of its 'clear favourite' calls, in every scenario", () => {
    for (const { tally } of calibration.scenarios) {
      expect(tally.calls).toBeGreaterThan(0);
      expect(tally.wrongCalls / tally.calls).toBeLessThanOrEqual(0.05);
    }
  });

  it('gives a range of votes to settle a lead that holds the votes actually needed in at least 3 polls in 4', () => {
    for (const { tally } of calibration.scenarios) {
      expect(tally.estimates).toBeGreaterThan(0);
      expect(tally.rangeHolds / tally.estimates).toBeGreaterThanOrEqual(0.75);
    }
  });

  it('states votes to settle a lead (at least the lower end, or the range) that hold the votes actually needed in at least 3 polls in 4', () => {
    for (const { tally } of calibration.scenarios) expect(tally.statedHolds / tally.estimates).toBeGreaterThanOrEqual(0.75);
  });

  it('calls a logo out of the race wrongly in at most 5% of the calls, in every scenario at every number of voters from 10 to 100', () => {
    for (const { hard, byVoters } of calibration.race) {
      if (hard) continue;
      for (const tally of byVoters) {
        expect(tally.calls).toBeGreaterThan(0);
        expect(wrongShare(tally)).toBeLessThanOrEqual(0.05);
      }
    }
  });

  it('takes the largest bar tried that keeps out-of-the-race calls within 5% wrong', () => {
    const keeping = calibration.bars.filter(({ worstAtVoters }) => wrongShare(worstAtVoters) <= 0.05).map(({ outBelow }) => outBelow);
    expect(Math.max(...keeping)).toBe(OUT_OF_RACE_CHANCE);
  });

  it('is reported in docs/confidence.md as simulated', () => {
    const doc = readFileSync(path.join(__dirname, '../../../docs/confidence.md'), 'utf8');
    const report = cells(calibrationReport(calibration));
    const documented = cells(doc);
    for (const row of report) expect(documented).toContainEqual(row);
  });
});
