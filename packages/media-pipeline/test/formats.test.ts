import { contentTypeOfFilename, sniffImageFormat } from '../src';
import { jpeg, png, svg, webp, zipArchive } from './fixtures';

describe('sniffing the real type from the bytes', () => {
  it('recognises PNG, JPEG, WebP and SVG', async () => {
    expect(sniffImageFormat(await png())).toBe('png');
    expect(sniffImageFormat(await jpeg())).toBe('jpeg');
    expect(sniffImageFormat(await webp())).toBe('webp');
    expect(sniffImageFormat(svg())).toBe('svg');
    expect(sniffImageFormat(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('\n  <svg/>')]))).toBe('svg');
  });

  it('recognises nothing else, whatever the file is called', () => {
    expect(sniffImageFormat(zipArchive())).toBeUndefined();
    expect(sniffImageFormat(Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'))).toBeUndefined();
    expect(sniffImageFormat(Buffer.from('hello <svg>'))).toBeUndefined();
    expect(sniffImageFormat(Buffer.from('<svg\u0000>'))).toBeUndefined();
    expect(sniffImageFormat(Buffer.alloc(0))).toBeUndefined();
  });

  it('maps stored names to their Content-Type', () => {
    expect(contentTypeOfFilename('abc.jpg')).toBe('image/jpeg');
    expect(contentTypeOfFilename('abc.svg')).toBe('image/svg+xml');
    expect(contentTypeOfFilename('abc.gif')).toBeUndefined();
  });
});
