import { ATTRIBUTE_PRESETS, attributeLeaderSentence, attributeQuestion } from '../src/attribute-question';
import { AttributeNames } from '../src/attributes';

describe('attribute questions', () => {
  it('asks each preset in its own words, in any letter case, and quotes the creator’s own', () => {
    expect(attributeQuestion('Trustworthy')).toBe('Which looks most trustworthy?');
    expect(attributeQuestion('easy to read')).toBe('Which is easiest to read?');
    expect(attributeQuestion('Fits a neighbourhood bakery')).toBe('Which best fits “Fits a neighbourhood bakery”?');
    for (const [preset, question] of Object.entries(ATTRIBUTE_PRESETS)) expect(attributeQuestion(preset)).toBe(question);
  });

  it('says where an attribute’s leader differs from the poll’s', () => {
    expect(attributeLeaderSentence('Logo C', 'Logo A', 'Trustworthy', '81%')).toBe(
      'Logo C is picked most often, but Logo A looks most trustworthy: 81% likely',
    );
    expect(attributeLeaderSentence('Logo C', 'Logo A', 'Memorable', '60%')).toBe(
      'Logo C is picked most often, but Logo A is most memorable: 60% likely',
    );
  });
});

describe('the attributes a creator names', () => {
  it('takes up to four different one-line names of at most 60 characters', () => {
    expect(AttributeNames.parse(['Trustworthy', ' Fits a bakery '])).toEqual(['Trustworthy', 'Fits a bakery']);
    const refusal = (names: unknown) => AttributeNames.safeParse(names).error?.issues[0]?.message;
    expect(refusal(['a', 'b', 'c', 'd', 'e'])).toBe('A poll can ask about at most 4 attributes');
    expect(refusal(['Modern', 'modern'])).toBe('Each attribute needs a different name');
    expect(refusal(['x'.repeat(61)])).toBe('The attribute must be at most 60 characters');
    expect(refusal(['two\nlines'])).toBe('The attribute must be a single line');
    expect(refusal([' '])).toBe('The attribute must not be empty');
  });
});
