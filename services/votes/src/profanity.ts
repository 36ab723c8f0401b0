import {
  RegExpMatcher,
  TextCensor,
  englishDataset,
  englishRecommendedTransformers,
  keepStartCensorStrategy,
  asteriskCensorStrategy,
} from 'obscenity';

/**
 * Profanity in voters' reasons is masked, not refused (docs/reasons.md): the opinion stays readable
 * ("the f*** colours"), the results page stays clean, and a voter is not pushed into spelling tricks
 * to get past a refusal. obscenity's English set with its recommended transformers also catches leet
 * speak and repeated letters ("sh1t", "fuuuck") and knows harmless words that contain a
 * match ("Scunthorpe", "assessment").
 */
const matcher = new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });
const censor = new TextCensor().setStrategy(keepStartCensorStrategy(asteriskCensorStrategy()));

export function maskProfanity(text: string): string {
  const matches = matcher.getAllMatches(text, true);
  return matches.length > 0 ? censor.applyTo(text, matches) : text;
}
