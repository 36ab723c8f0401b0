import type { Logo } from '@logovote/contracts';
import { rankLogos } from '@logovote/contracts/ranking';
import { attributeRow, differingLeaderSentence } from '../src/attribute-grid';

const logo = (id: string, voteCount: number): Logo => ({
  id,
  filename: `${id}.png`,
  originalName: `${id}.png`,
  name: id,
  voteCount,
  backdrop: 'light',
});
/** C picked most often, then A, then B. */
const ranked = rankLogos([logo('a', 5), logo('b', 2), logo('c', 13)], 20);
const counts = (answers: Record<string, number>, cantSay = 0) => ({
  logos: Object.entries(answers).map(([logoId, count]) => ({ logoId, answers: count })),
  cantSay,
});

describe('an attribute row of the grid', () => {
  it('gives each logo its share of the answers that picked one, "Can\'t say" apart, in the page order', () => {
    const row = attributeRow('Trustworthy', ranked, counts({ a: 13, b: 2, c: 1 }, 4));
    expect(row.cells.map((cell) => [cell.label, cell.percent])).toEqual([
      ['Logo A', 6],
      ['Logo B', 81],
      ['Logo C', 13],
    ]);
    expect(row.answers).toBe(16);
    expect(row.cantSay).toBe(4);
    expect(row.call).toBe('clear');
    expect(row.leader).toEqual({ logoId: 'a', label: 'Logo B', chance: expect.stringMatching(/^\d+%$/) });
  });

  it('calls a close lead "leads", a shared top "too close", and nothing answered "no answers"', () => {
    expect(attributeRow('Modern', ranked, counts({ a: 4, b: 3, c: 2 })).call).toBe('leads');
    expect(attributeRow('Modern', ranked, counts({ a: 3, c: 3 })).call).toBe('too close');
    expect(attributeRow('Modern', ranked, counts({ a: 3, c: 3 })).leader).toBeUndefined();
    const none = attributeRow('Modern', ranked, counts({}, 2));
    expect(none.call).toBe('no answers');
    expect(none.cells.every((cell) => cell.percent === 0)).toBe(true);
  });
});

describe('the sentence where an attribute leader differs', () => {
  it('names the logo picked most often and the one that fits the attribute best, with its chance', () => {
    const row = attributeRow('Trustworthy', ranked, counts({ a: 13, b: 2, c: 1 }));
    expect(differingLeaderSentence(row, ranked)).toBe(
      `Logo A is picked most often, but Logo B looks most trustworthy: ${row.leader!.chance} likely`,
    );
    const ownWords = attributeRow('Fits a neighbourhood bakery', ranked, counts({ a: 13, b: 2, c: 1 }));
    expect(differingLeaderSentence(ownWords, ranked)).toBe(
      `Logo A is picked most often, but Logo B best fits “Fits a neighbourhood bakery”: ${ownWords.leader!.chance} likely`,
    );
  });

  it('says nothing when the leaders agree, or either is unclear', () => {
    expect(differingLeaderSentence(attributeRow('Modern', ranked, counts({ c: 9, a: 1 })), ranked)).toBeNull();
    expect(differingLeaderSentence(attributeRow('Modern', ranked, counts({ a: 3, c: 3 })), ranked)).toBeNull();
    const tiedPoll = rankLogos([logo('a', 4), logo('c', 4)], 8);
    expect(differingLeaderSentence(attributeRow('Modern', tiedPoll, counts({ a: 1, c: 9 })), tiedPoll)).toBeNull();
  });
});
