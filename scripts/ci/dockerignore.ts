/**
 * .dockerignore as Docker reads it: patterns relative to the context root, `*` and `?` within one path
 * segment, `**` across segments, `!` re-includes, the last matching line wins, and a pattern that matches a
 * directory excludes everything below it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface Rule {
  negate: boolean;
  regex: RegExp;
}

function toRegex(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '*' && pattern[i + 1] === '*') {
      // "**/" matches any number of leading directories, a trailing "**" anything.
      const slash = pattern[i + 2] === '/';
      source += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

export function parseDockerignore(text: string): Rule[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const negate = line.startsWith('!');
      const pattern = (negate ? line.slice(1) : line).replace(/^\/+/, '').replace(/\/+$/, '');
      return { negate, regex: toRegex(pattern) };
    });
}

/** Whether a context-relative path (forward slashes) is left out of the build context. */
export function isIgnored(rules: Rule[], relativePath: string): boolean {
  const segments = relativePath.split('/');
  let ignored = false;
  for (const rule of rules) {
    // A rule applies to the path itself or to any of its parent directories.
    const matches = segments.some((_, i) => rule.regex.test(segments.slice(0, i + 1).join('/')));
    if (matches) ignored = !rule.negate;
  }
  return ignored;
}

/** Every file and symbolic link of the context, relative and sorted. */
export function contextFiles(contextDir: string): string[] {
  const text = (() => {
    try {
      return readFileSync(join(contextDir, '.dockerignore'), 'utf8');
    } catch {
      return '';
    }
  })();
  const rules = parseDockerignore(text);
  const reincludes = rules.some((rule) => rule.negate);
  const files: string[] = [];
  const walk = (relativeDir: string) => {
    for (const entry of readdirSync(join(contextDir, relativeDir), { withFileTypes: true })) {
      const relative = relativeDir ? `${relativeDir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        // An ignored directory is still walked when a "!" line might bring a file below it back.
        if (reincludes || !isIgnored(rules, relative)) walk(relative);
      } else if (!isIgnored(rules, relative)) files.push(relative);
    }
  };
  walk('');
  return files.sort();
}
