import type { ReactNode } from 'react';

/** A headed section of one of the shell's text pages (the terms, the help pages). */
export function PageSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="flex flex-col gap-2">
      <h2 className="text-xl font-semibold">{title}</h2>
      {children}
    </section>
  );
}
