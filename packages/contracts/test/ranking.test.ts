import { labelWithName, rankGroup, rankLogos } from '../src/ranking';

const logo = (id: string, voteCount: number) => ({ id, voteCount });

describe('rankLogos: the results ranking', () => {
  it('sorts by votes, most first, and labels by position', () => {
    const ranked = rankLogos([logo('a', 1), logo('b', 5), logo('c', 3)], 9);
    expect(ranked.map(({ logo: { id }, label, percent, isWinner }) => [id, label, percent, isWinner])).toEqual([
      ['b', 'Logo A', 56, true],
      ['c', 'Logo B', 33, false],
      ['a', 'Logo C', 11, false],
    ]);
  });

  it('keeps tied logos in the order given, the upload order, whatever their ids', () => {
    const uploads = [logo('z', 2), logo('m', 4), logo('a', 2), logo('q', 4)];
    expect(rankLogos(uploads, 12).map((ranked) => [ranked.label, ranked.logo.id])).toEqual([
      ['Logo A', 'm'],
      ['Logo B', 'q'],
      ['Logo C', 'z'],
      ['Logo D', 'a'],
    ]);
  });

  it('labels a poll without votes in upload order and crowns nobody', () => {
    const ranked = rankLogos([logo('d', 0), logo('c', 0), logo('b', 0), logo('a', 0)], 0);
    expect(ranked.map((item) => [item.label, item.logo.id, item.percent, item.isWinner])).toEqual([
      ['Logo A', 'd', 0, false],
      ['Logo B', 'c', 0, false],
      ['Logo C', 'b', 0, false],
      ['Logo D', 'a', 0, false],
    ]);
  });

  it('does not reorder the list it is given', () => {
    const uploads = [logo('a', 0), logo('b', 2)];
    rankLogos(uploads, 2);
    expect(uploads.map((item) => item.id)).toEqual(['a', 'b']);
  });
});

describe('labelWithName', () => {
  it("puts the creator's name beside the spec's label", () => {
    expect(labelWithName('Logo A', 'Wordmark')).toBe('Logo A · Wordmark');
  });
});

describe('rankGroup (a channel, docs/channels.md)', () => {
  it('ranks one group by its own votes, ties in the poll order, each logo keeping its label from the poll', () => {
    const logos = [
      { id: 'w', voteCount: 5 },
      { id: 'm', voteCount: 3 },
      { id: 's', voteCount: 3 },
    ];
    const group = new Map([
      ['w', 1],
      ['m', 2],
      ['s', 1],
    ]);
    const standings = rankGroup(rankLogos(logos, 11), (logo) => group.get(logo.id) ?? 0);
    expect(standings.map(({ logo, label, votes, percent }) => [logo.id, label, votes, percent])).toEqual([
      ['m', 'Logo B', 2, 50],
      ['w', 'Logo A', 1, 25],
      ['s', 'Logo C', 1, 25],
    ]);
  });

  it('gives 0 percent to every logo of a group without votes', () => {
    const standings = rankGroup(rankLogos([{ voteCount: 1 }, { voteCount: 0 }], 1), () => 0);
    expect(standings.map((standing) => standing.percent)).toEqual([0, 0]);
  });
});
