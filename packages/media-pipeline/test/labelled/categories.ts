// The labelled moderation set (docs/moderation.md): each category says what the whole moderation suite
// should do with its images. bench/moderation-eval.ts measures the suite on every category and
// test/faces.test.ts holds the face check to it. A new category is one more entry in LABELLED_CATEGORIES.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brandTextLogos, plainTextLogos } from './brand-logos';

export interface LabelledImage {
  name: string;
  bytes: Buffer;
}

export interface LabelledCategory {
  name: string;
  /** What the suite should do with every image of the category. */
  expected: 'pass' | 'refuse';
  /** The check that should refuse them (the `check` of a ModerationCheck), when expected is 'refuse'. */
  check?: string;
  images: () => Iterable<LabelledImage> | AsyncIterable<LabelledImage> | Promise<LabelledImage[]>;
}

const FOLDER = __dirname;

/** The images of a folder of the set (those whose names the filter accepts). */
export function folderImages(folder: 'plain' | 'faces', accept: (name: string) => boolean = () => true): LabelledImage[] {
  return readdirSync(join(FOLDER, folder))
    .filter((name) => /\.(png|jpe?g|svg|webp)$/.test(name) && accept(name))
    .sort()
    .map((name) => ({ name, bytes: readFileSync(join(FOLDER, folder, name)) }));
}

/** plain/ holds logos without faces and logos with drawn (drawn-*) or emoji (emoji-*) faces; both must pass. */
const isDrawnFace = (name: string) => name.startsWith('drawn-') || name.startsWith('emoji-');

export const LABELLED_CATEGORIES: LabelledCategory[] = [
  { name: 'plain logos', expected: 'pass', images: () => folderImages('plain', (name) => !isDrawnFace(name)) },
  { name: 'drawn and emoji faces', expected: 'pass', images: () => folderImages('plain', isDrawnFace) },
  { name: 'photographic faces', expected: 'refuse', check: 'faces', images: () => folderImages('faces') },
  {
    name: 'text logos without a brand',
    expected: 'pass',
    images: async () => (await plainTextLogos()).map(({ name, png }) => ({ name, bytes: png })),
  },
  {
    name: 'brand names',
    expected: 'refuse',
    check: 'brands',
    images: async () => (await brandTextLogos()).map(({ name, png }) => ({ name, bytes: png })),
  },
];

export async function collect(category: LabelledCategory): Promise<LabelledImage[]> {
  const images: LabelledImage[] = [];
  for await (const image of await category.images()) images.push(image);
  return images;
}
