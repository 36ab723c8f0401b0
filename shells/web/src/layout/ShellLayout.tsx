import { Link } from '@logovote/ui';
import type { ReactNode } from 'react';

export function ShellLayout({ children }: { children: ReactNode }) {
  return (
    <div data-testid="shell" className="flex min-h-dvh flex-col">
      <main className="flex flex-1 flex-col px-4 py-8 sm:px-6">{children}</main>
      <footer className="border-t border-border px-4 py-6 text-center text-sm text-muted-foreground">
        <p>
          © {new Date().getFullYear()} LogoVote. All rights reserved.{' '}
          <Link to="/terms" className="underline underline-offset-4 hover:text-foreground">
            Terms of Use
          </Link>
        </p>
      </footer>
    </div>
  );
}
