import { ChannelNames, CreateSessionFields, MAX_CHANNEL_NAME_LENGTH, MAX_CHANNELS_PER_POLL, VoteRequest } from '../src';

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message);

describe('channel names (docs/channels.md)', () => {
  it('takes up to the limit of names, trimmed, of any script', () => {
    const names = ['  Newsletter ', 'Instagram', 'Team', 'Équipe', 'チーム', '👍 Fans', 'x'.repeat(MAX_CHANNEL_NAME_LENGTH), 'Eight'];
    expect(ChannelNames.parse(names)).toEqual(names.map((name) => name.trim()));
  });

  it.each([
    [
      'too many',
      Array.from({ length: MAX_CHANNELS_PER_POLL + 1 }, (_, index) => `C${index}`),
      `A poll can have at most ${MAX_CHANNELS_PER_POLL} channels`,
    ],
    ['two alike but for letter case', ['Team', ' TEAM'], 'Each channel needs a different name'],
    ['an empty name', ['  '], 'The channel name must not be empty'],
    ['a long name', ['n'.repeat(MAX_CHANNEL_NAME_LENGTH + 1)], `The channel name must be at most ${MAX_CHANNEL_NAME_LENGTH} characters`],
    ['a line break', ['a\nb'], 'The channel name must be a single line'],
    [
      'a direction override',
      ['evil\u202Egnp'],
      'The channel name must not contain invisible text-direction controls (U+202A to U+202E, U+2066 to U+2069)',
    ],
    [
      'a control character',
      ['a\u0000b'],
      'The channel name must not contain control characters such as NUL, tab or escape (U+0000 to U+001F, U+007F to U+009F)',
    ],
  ])('refuses %s', (_case, names, message) => {
    expect(messages(ChannelNames.safeParse(names))).toEqual([message]);
  });

  it('are optional at creation', () => {
    expect(CreateSessionFields.parse({}).channels).toBeUndefined();
    expect(CreateSessionFields.parse({ channels: ['Team'] }).channels).toEqual(['Team']);
  });
});

describe("a vote's via", () => {
  it('is optional and a short id', () => {
    expect(VoteRequest.parse({ logoId: 'l1' })).toEqual({ logoId: 'l1' });
    expect(VoteRequest.parse({ logoId: 'l1', via: 'Ab3_-x9Z' })).toEqual({ logoId: 'l1', via: 'Ab3_-x9Z' });
  });

  it.each([
    ['a name', 'Newsletter list'],
    ['too long', 'x'.repeat(17)],
    ['empty', ''],
  ])('refuses %s', (_case, via) => {
    expect(messages(VoteRequest.safeParse({ logoId: 'l1', via }))).toEqual(['via must be a channel id of this poll']);
  });
});
