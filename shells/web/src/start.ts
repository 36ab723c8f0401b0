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
  // After the frame that shows the logo: a task queued from a frame callback runs once that frame is painted.
  const afterNextPaint = () => {
    requestAnimationFrame(() => setTimeout(start, 0));
  };

  const logo = document.querySelector<HTMLImageElement>('#root img');
  if (!logo) {
    start();
  } else if (logo.complete) {
    afterNextPaint();
  } else {
    logo.addEventListener('load', afterNextPaint, { once: true });
    logo.addEventListener('error', start, { once: true });
    setTimeout(start, LOGO_WAIT_LIMIT_MS);
  }
}

const entryScript = document.currentScript?.dataset.entryScript;
if (entryScript) startShell(entryScript);
