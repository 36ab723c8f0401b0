/**
 * Concepts of logo critique, each named by words and short phrases that voters use for it. A cue is
 * matched against a token's lemma, its normal form (wink-nlp spells British words the American way:
 * "cosy" reads "cozy", "colour" reads "color") or its lowercase text; a phrase is cue words in a row,
 * punctuation skipped ("old-school" is "old school").
 */
export interface Concept {
  /** The theme's label: 1-3 words, sentence case. */
  label: string;
  /** Words and phrases that name the concept itself (weight 2). */
  cues: readonly string[];
  /** Words that point to it without naming it (weight 1). */
  hints?: readonly string[];
  /** The label of the concept a negated cue means instead ("not busy" is clean); without one, negated cues count for nothing. */
  opposite?: string;
}

export const CONCEPTS: readonly Concept[] = [
  {
    label: 'Warm and friendly',
    cues: ['warm', 'warmth', 'cozy', 'homely', 'homey', 'welcome', 'welcoming', 'invite', 'inviting', 'friendly', 'approachable'],
    hints: ['comforting', 'comfort', 'hug', 'home', 'grandmother', 'grandma', 'granny', 'personal', 'kind', 'gentle', 'soft'],
    opposite: 'Cold',
  },
  {
    label: 'Cold',
    cues: ['cold', 'sterile', 'clinical', 'soulless', 'unfriendly', 'unwelcoming'],
    opposite: 'Warm and friendly',
  },
  {
    label: 'Clean and simple',
    cues: ['clean', 'simple', 'simplest', 'simplicity', 'minimal', 'minimalist', 'minimalistic', 'uncluttered', 'uncomplicated'],
    hints: ['sleek', 'straightforward', 'understated', 'neat', 'tidy', 'crisp', 'less is more', 'nothing extra'],
    opposite: 'Too busy',
  },
  {
    label: 'Too busy',
    cues: ['busy', 'cluttered', 'clutter', 'messy', 'fussy', 'chaotic', 'overwhelming', 'overdone', 'too much', 'complicated'],
    hints: ['fuss', 'noisy', 'crowded', 'detail'],
    opposite: 'Clean and simple',
  },
  {
    label: 'Easy to read',
    cues: ['legible', 'readable', 'easy to read', 'easy read', 'easy to make out', 'clear', 'easy on the eye'],
    hints: ['read'],
    opposite: 'Hard to read',
  },
  {
    label: 'Hard to read',
    cues: ['illegible', 'unreadable', 'hard to read', 'difficult to read', 'hard to make out', 'squint'],
    hints: ['blurry', 'too small', 'too thin'],
    opposite: 'Easy to read',
  },
  {
    label: 'Fun and playful',
    cues: ['fun', 'playful', 'cheeky', 'cheerful', 'quirky', 'whimsical', 'humor', 'humour', 'funny', 'lighthearted', 'joyful', 'jolly'],
    hints: ['happy', 'smile', 'cute', 'silly', 'joy', 'bubbly', 'cartoon', 'kid', 'child'],
  },
  {
    label: 'Classic and timeless',
    cues: ['timeless', 'classic', 'vintage', 'retro', 'old school', 'heritage', 'traditional', 'nostalgic', 'nostalgia'],
    hints: ['go out of style', 'been around', 'old'],
    opposite: 'Looks dated',
  },
  {
    label: 'Looks dated',
    cues: ['dated', 'outdated', 'old fashioned', 'out of date', 'old hat'],
    hints: ['90s', '80s', 'tired'],
    opposite: 'Classic and timeless',
  },
  {
    label: 'Modern and fresh',
    cues: ['modern', 'fresh', 'contemporary', 'futuristic', 'trendy', 'up to date', 'current'],
    hints: ['new', 'innovative', 'techy', 'tech', 'young', 'youthful'],
    opposite: 'Looks dated',
  },
  {
    label: 'Looks professional',
    cues: ['professional', 'trustworthy', 'credible', 'corporate', 'reliable', 'polished', 'legit', 'legitimate', 'trust', 'serious'],
    hints: ['established', 'real company', 'solid', 'competent', 'dependable', 'respectable'],
    opposite: 'Looks amateur',
  },
  {
    label: 'Looks amateur',
    cues: ['amateur', 'amateurish', 'unprofessional', 'homemade', 'clip art', 'clipart'],
    hints: ['cheap'],
    opposite: 'Looks professional',
  },
  {
    label: 'Elegant',
    cues: [
      'elegant',
      'elegance',
      'premium',
      'luxury',
      'luxurious',
      'classy',
      'sophisticated',
      'upmarket',
      'high end',
      'refined',
      'stylish',
      'chic',
    ],
    hints: ['expensive', 'posh', 'graceful', 'fancy'],
  },
  {
    label: 'The colours',
    cues: ['color', 'colour', 'colorful', 'colourful', 'palette', 'shade', 'hue'],
    hints: ['green', 'blue', 'red', 'orange', 'yellow', 'purple', 'pink', 'teal', 'gold', 'vibrant', 'bright', 'pastel'],
  },
  {
    label: 'Memorable',
    cues: [
      'memorable',
      'unique',
      'distinctive',
      'stand out',
      'eye catching',
      'recognisable',
      'recognizable',
      'iconic',
      'catchy',
      'original',
    ],
    hints: ['remember', 'stick', 'different', 'unusual', 'striking'],
    opposite: 'Generic',
  },
  {
    label: 'Generic',
    cues: ['generic', 'boring', 'bland', 'forgettable', 'dull', 'stock'],
    hints: ['plain', 'seen before'],
    opposite: 'Memorable',
  },
  {
    label: 'Works small',
    cues: ['scalable', 'scale', 'app icon', 'favicon', 'any size', 'small size', 'shrink'],
    hints: ['small', 'tiny', 'icon', 'phone', 'sticker', 'stamp'],
  },
  {
    label: 'Fits the business',
    cues: ['fit', 'suit', 'relevant', 'make sense', 'appropriate', 'represent', 'what they do', 'what we do'],
    hints: ['match', 'right for', 'sum up'],
  },
  {
    label: 'The font',
    cues: ['font', 'typeface', 'typography', 'lettering', 'serif', 'handwriting', 'handwritten', 'script'],
    hints: ['letter', 'text'],
  },
];
