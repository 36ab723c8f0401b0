import { logoAppearance, logoBackdrop, type LogoBackdrop } from '@logovote/contracts/logo-backdrop';
import { useEffect, useState } from 'react';

/** The side the browser measures a chosen logo at: plenty for the luminance percentiles, cheap to read back. */
const MEASURE_SIDE = 256;

/** A chosen file's backdrop, by the server's rule (docs/logo-backdrops.md) on pixels drawn into a canvas. */
async function measureBackdrop(url: string): Promise<LogoBackdrop> {
  const image = new Image();
  image.src = url;
  await image.decode();
  // An SVG without its own size draws into the square.
  const width = image.naturalWidth || MEASURE_SIDE;
  const height = image.naturalHeight || MEASURE_SIDE;
  const scale = Math.min(1, MEASURE_SIDE / Math.max(width, height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(width * scale));
  canvas.height = Math.max(1, Math.round(height * scale));
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) return 'light';
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  return logoBackdrop(logoAppearance(context.getImageData(0, 0, canvas.width, canvas.height).data, canvas.width));
}

/** The backdrop of a chosen logo's preview: light until it is measured, and when it cannot be (a file that does not decode). */
export function useLogoBackdrop(url: string): LogoBackdrop {
  const [measured, setMeasured] = useState<{ url: string; backdrop: LogoBackdrop }>();
  useEffect(() => {
    let current = true;
    measureBackdrop(url)
      .catch((): LogoBackdrop => 'light')
      .then((backdrop) => {
        if (current) setMeasured({ url, backdrop });
      });
    return () => {
      current = false;
    };
  }, [url]);
  return measured?.url === url ? measured.backdrop : 'light';
}
