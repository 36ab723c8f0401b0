/** Where this browser lists the polls it created (docs/your-polls.md). */
export const REMEMBERED_POLLS_KEY = 'logovote.createdPolls';

/**
 * Whether this browser may have polls to list, without parsing them: the landing page loads 'Your polls'
 * (and the validation it brings) only then, so a first visit renders nothing more.
 */
export function mayHaveRememberedPolls(): boolean {
  try {
    const stored = typeof localStorage === 'undefined' ? null : localStorage.getItem(REMEMBERED_POLLS_KEY);
    return stored !== null && stored !== '[]';
  } catch {
    return false;
  }
}
