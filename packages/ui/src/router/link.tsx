import type { ComponentProps, MouseEvent } from 'react';

import { navigate } from './history';

export type LinkProps = Omit<ComponentProps<'a'>, 'href'> & {
  /** Destination path, e.g. `/results/abc`. */
  to: string;
  replace?: boolean;
};

/** An <a> that navigates client-side for plain left clicks and behaves like a normal link otherwise. */
export function Link({ to, replace, onClick, target, ...props }: LinkProps) {
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.altKey ||
      event.ctrlKey ||
      event.shiftKey ||
      (target !== undefined && target !== '_self')
    ) {
      return;
    }
    event.preventDefault();
    navigate(to, { replace: replace ?? false });
  };
  return <a href={to} target={target} onClick={handleClick} {...props} />;
}
