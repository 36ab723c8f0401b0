/**
 * The page's first script (index.html): it runs the shell's entry script, which the page preloads, once the
 * logo the page's HTML shows as its first paint is on screen. The entry script's start-up (the Module Federation
 * runtime's set-up) holds a phone's main thread for a few hundred milliseconds: run before that paint, it
 * would hold back the page's largest paint with it. Pages without such a logo run it at once.
 */

/** A logo slower than this does not hold the page's script back any longer. */
const LOGO_WAIT_LIMIT_MS = 1000;

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
  // which can come after the main thread's next task). Browsers without that report: once it is decoded and the
  // next frame has been painted.
  const afterLogoPaint = (logo: HTMLImageElement) => {
    if (PerformanceObserver.supportedEntryTypes.includes('largest-contentful-paint')) {
      const observer = new PerformanceObserver((list) => {
        if (!list.getEntries().some((entry) => (entry as LargestContentfulPaint).element === logo)) return;
        observer.disconnect();
        setTimeout(start, 0);
      });
      observer.observe({ type: 'largest-contentful-paint', buffered: true });
      return;
    }
    logo
      .decode()
      .catch(() => undefined)
      .then(() => requestAnimationFrame(() => setTimeout(start, 0)));
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

const entryScript = document.currentScript?.dataset.entryScript;
if (entryScript) startShell(entryScript);
