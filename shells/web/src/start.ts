/**
 * The page's first script (index.html): it runs the shell's entry script, which the page preloads, once the
 * logo the page's HTML shows as its first paint is on screen. The entry script's start-up (the Module Federation
 * runtime's set-up) holds a phone's main thread for a few hundred milliseconds: run before that paint, it
 * would hold back the page's largest paint with it. Pages without such a logo run it at once.
 *
 * On the voting page it also makes the first paint's Vote button take a tap, seconds before the voting screen's
 * code has arrived on a slow network.
 */
import { keepFirstPaintVote } from '@logovote/web-client/first-paint-vote';

/** A logo slower than this does not hold the page's script back any longer. */
const LOGO_WAIT_LIMIT_MS = 1000;

/**
 * An image's size as the largest-paint report counts it: its area on screen, scaled down when the image is shown
 * larger than its own pixels.
 */
function paintSize(image: HTMLImageElement): number {
  const box = image.getBoundingClientRect();
  const shown = box.width * box.height;
  const visibleWidth = Math.max(0, Math.min(box.right, window.innerWidth) - Math.max(box.left, 0));
  const visibleHeight = Math.max(0, Math.min(box.bottom, window.innerHeight) - Math.max(box.top, 0));
  const natural = image.naturalWidth * image.naturalHeight;
  const scale = natural > 0 && shown > 0 ? Math.min(1, natural / shown) : 1;
  return visibleWidth * visibleHeight * scale;
}

function startShell(entryScript: string): void {
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    const script = document.createElement('script');
    script.src = entryScript;
    document.head.append(script);
  };
  // Once the logo is on screen: the browser reports it as the largest paint (after the frame has been presented,
  // which can come after the main thread's next task). A logo no larger than a paint already reported (the
  // question or the footer, beside a small logo) is never reported: once it has loaded and the next frame has been
  // painted. Browsers without that report: once it is decoded and the next frame has been painted.
  const afterNextFrame = () => requestAnimationFrame(() => setTimeout(start, 0));
  const afterLogoPaint = (logo: HTMLImageElement) => {
    if (PerformanceObserver.supportedEntryTypes.includes('largest-contentful-paint')) {
      let largestPaint = 0;
      const observer = new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as LargestContentfulPaint[]) {
          largestPaint = Math.max(largestPaint, entry.size);
          if (entry.element === logo) {
            observer.disconnect();
            setTimeout(start, 0);
            return;
          }
        }
      });
      observer.observe({ type: 'largest-contentful-paint', buffered: true });
      const onLoad = () => {
        if (paintSize(logo) <= largestPaint) afterNextFrame();
      };
      if (logo.complete) onLoad();
      else logo.addEventListener('load', onLoad, { once: true });
      return;
    }
    logo
      .decode()
      .catch(() => undefined)
      .then(afterNextFrame);
  };

  const logo = document.querySelector<HTMLImageElement>('#root img');
  if (!logo) {
    start();
  } else {
    afterLogoPaint(logo);
    // A logo that fails to load is never painted: nothing to wait for.
    logo.addEventListener('error', start, { once: true });
    setTimeout(start, LOGO_WAIT_LIMIT_MS);
  }
}

keepFirstPaintVote();
const entryScript = document.currentScript?.dataset.entryScript;
if (entryScript) startShell(entryScript);
