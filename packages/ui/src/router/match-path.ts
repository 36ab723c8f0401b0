/**
 * Matches a pathname against a pattern such as `/vote/:sessionId`. Returns the decoded params, or
 * null when it does not match. One trailing slash is tolerated; matching is case-sensitive.
 */
export function matchPath(pattern: string, pathname: string): Record<string, string> | null {
  const split = (path: string) => path.replace(/\/+$/, '').split('/').slice(1);
  const patternParts = split(pattern);
  const pathParts = split(pathname);
  if (patternParts.length !== pathParts.length) return null;
  const params: Record<string, string> = {};
  for (const [i, part] of patternParts.entries()) {
    const actual = pathParts[i] ?? '';
    if (part.startsWith(':')) {
      if (actual === '') return null;
      try {
        params[part.slice(1)] = decodeURIComponent(actual);
      } catch {
        return null;
      }
    } else if (part !== actual) {
      return null;
    }
  }
  return params;
}
