// Async boundary: Module Federation negotiates the shared singletons (react, react-dom,
// @tanstack/react-query) before any of the app's modules run.
import('./bootstrap').catch((error: unknown) => {
  // eslint-disable-next-line no-console -- nothing rendered yet: the browser console is the only place to report it
  console.error('LogoVote failed to start', error);
});
