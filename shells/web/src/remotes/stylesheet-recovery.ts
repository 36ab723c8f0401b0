/**
 * A remote's CSS is preloaded by the Module Federation runtime as <link rel="stylesheet"> from its
 * manifest. If such a link fails (remote partly down), rspack's CSS runtime later finds the link in
 * the DOM and treats the CSS chunk as loaded, so a successful retry would render without its styles.
 * We remember failed stylesheet links and replace them with fresh ones before each load attempt.
 */
const failedStylesheets = new Set<HTMLLinkElement>();

/** Start recording stylesheet load failures (resource errors do not bubble, but can be captured). */
export function watchStylesheetFailures(): void {
  document.addEventListener(
    'error',
    (event) => {
      const target = event.target;
      if (target instanceof HTMLLinkElement && target.rel === 'stylesheet') failedStylesheets.add(target);
    },
    true,
  );
}

/** Re-request every stylesheet that failed to load so far. */
export function reloadFailedStylesheets(): void {
  for (const link of failedStylesheets) {
    failedStylesheets.delete(link);
    if (link.isConnected) link.replaceWith(link.cloneNode(false));
  }
}
