import type { ComponentProps } from 'react';

/** A few stroke icons (Lucide's shapes), inline: an icon library as a shared module could not be tree-shaken. */
export function Icon({ children, ...props }: ComponentProps<'svg'>) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      viewBox="0 0 24 24"
      width="24"
      height="24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      {children}
    </svg>
  );
}

export const XIcon = (props: ComponentProps<'svg'>) => (
  <Icon {...props}>
    <path d="M18 6 6 18M6 6l12 12" />
  </Icon>
);

export const CheckIcon = (props: ComponentProps<'svg'>) => (
  <Icon {...props}>
    <path d="M20 6 9 17l-5-5" />
  </Icon>
);

export const CopyIcon = (props: ComponentProps<'svg'>) => (
  <Icon {...props}>
    <rect width="14" height="14" x="8" y="8" rx="2" />
    <path d="M4 16c-1.1 0-2-.9-2-2V4c0-1.1.9-2 2-2h10c1.1 0 2 .9 2 2" />
  </Icon>
);

export const UploadIcon = (props: ComponentProps<'svg'>) => (
  <Icon {...props}>
    <path d="M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4M17 8l-5-5-5 5M12 3v12" />
  </Icon>
);

export const MailIcon = (props: ComponentProps<'svg'>) => (
  <Icon {...props}>
    <rect width="20" height="16" x="2" y="4" rx="2" />
    <path d="m22 7-8.97 5.7a1.94 1.94 0 0 1-2.06 0L2 7" />
  </Icon>
);

export const AlertCircleIcon = (props: ComponentProps<'svg'>) => (
  <Icon {...props}>
    <circle cx="12" cy="12" r="10" />
    <path d="M12 8v4M12 16h.01" />
  </Icon>
);

export const ArrowLeftIcon = (props: ComponentProps<'svg'>) => (
  <Icon {...props}>
    <path d="m12 19-7-7 7-7M19 12H5" />
  </Icon>
);

/** A spinning circle for pending states. */
export const SpinnerIcon = ({ className, ...props }: ComponentProps<'svg'>) => (
  <Icon className={['animate-spin', className].filter(Boolean).join(' ')} {...props}>
    <path d="M21 12a9 9 0 1 1-6.22-8.56" />
  </Icon>
);
