import { MAX_LOGO_NAME_LENGTH } from '../src/limits';
import { defaultLogoName } from '../src/logo-name';
import { CreateSessionFields, LogoName, logoNamesCountMismatch } from '../src/sessions';

describe('defaultLogoName: a logo named after its file', () => {
  it.each([
    ['wordmark.svg', 'wordmark'],
    ['Logo Final v2.PNG', 'Logo Final v2'],
    ['archive.tar.png', 'archive.tar'],
    ['no-extension', 'no-extension'],
    ['  spaced name .webp ', 'spaced name'],
    ['.png', '.png'],
    ['日本語のロゴ.jpg', '日本語のロゴ'],
  ])('%j gives %j', (fileName, name) => {
    expect(defaultLogoName(fileName)).toBe(name);
  });

  it('cuts a long file name to the limit, never between the halves of a character', () => {
    expect(defaultLogoName(`${'a'.repeat(100)}.png`)).toBe('a'.repeat(MAX_LOGO_NAME_LENGTH));
    const emoji = defaultLogoName(`${'a'.repeat(MAX_LOGO_NAME_LENGTH - 1)}😀😀.png`);
    expect(emoji).toBe('a'.repeat(MAX_LOGO_NAME_LENGTH - 1));
    expect(LogoName.safeParse(emoji).success).toBe(true);
  });

  it('is always a valid name itself', () => {
    for (const fileName of ['x.png', `${'ü'.repeat(300)}.svg`, '👨‍👩‍👧 family.webp']) {
      expect(LogoName.safeParse(defaultLogoName(fileName)).success).toBe(true);
    }
  });
});

describe('CreateSessionFields.logoNames', () => {
  const parse = (logoNames: unknown) => CreateSessionFields.safeParse({ logoNames });

  it('is optional', () => {
    expect(CreateSessionFields.parse({})).toEqual({});
  });

  it('keeps the names in order, trimmed; an empty one stays empty (the server then uses the default)', () => {
    expect(parse(['  Wordmark ', 'Monogram', ''])).toMatchObject({ success: true, data: { logoNames: ['Wordmark', 'Monogram', ''] } });
  });

  it(`takes names of up to ${MAX_LOGO_NAME_LENGTH} characters`, () => {
    expect(parse(['n'.repeat(MAX_LOGO_NAME_LENGTH)]).success).toBe(true);
    const tooLong = parse(['ok', 'n'.repeat(MAX_LOGO_NAME_LENGTH + 1)]);
    expect(tooLong.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['logoNames.1', `The logo name must be at most ${MAX_LOGO_NAME_LENGTH} characters`],
    ]);
  });

  it("refuses what the question's rules refuse, naming the field", () => {
    const cases: [string, string][] = [
      ['two\nlines', 'The logo name must be a single line'],
      ['nul\u0000', 'The logo name must not contain control characters such as NUL, tab or escape (U+0000 to U+001F, U+007F to U+009F)'],
      ['evil\u202Egnp', 'The logo name must not contain invisible text-direction controls (U+202A to U+202E, U+2066 to U+2069)'],
      ['half \ud800', 'The logo name must be valid Unicode text'],
    ];
    for (const [name, message] of cases) expect(parse([name]).error?.issues.map((issue) => issue.message)).toEqual([message]);
  });

  it('refuses more names than a poll has logos, and anything but strings', () => {
    expect(parse(['a', 'b', 'c', 'd', 'e']).success).toBe(false);
    expect(parse([3]).success).toBe(false);
    expect(parse('one').success).toBe(false);
  });

  it('says how many names a mismatched creation sent', () => {
    expect(logoNamesCountMismatch(3, 2)).toBe('logoNames: send one name per logo, in the order of the files (3 logos, 2 names)');
    expect(logoNamesCountMismatch(2, 1)).toBe('logoNames: send one name per logo, in the order of the files (2 logos, 1 name)');
  });
});
