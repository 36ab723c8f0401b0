import type { Channel } from '@logovote/contracts';
import { Button, Icon, type ButtonProps } from '@logovote/ui';
import { lazy, Suspense, useRef, useState, type ComponentProps } from 'react';

// The dialog and the QR encoder come on first use: the results page's first load carries neither.
const loadQrCodeDialog = () => import(/* webpackChunkName: "qr-code-dialog" */ './QrCodeDialog');
const QrCodeDialog = lazy(loadQrCodeDialog);

function QrIcon(props: ComponentProps<'svg'>) {
  return (
    <Icon {...props}>
      <rect x="3" y="3" width="7" height="7" rx="1" />
      <rect x="14" y="3" width="7" height="7" rx="1" />
      <rect x="3" y="14" width="7" height="7" rx="1" />
      <path d="M14 14h3v3h-3zM20 14v.01M14 20h.01M17 20h4v-3" />
    </Icon>
  );
}

/** 'QR code' beside the spec's 'Share': the voting link as a QR code, to show or download (docs/sharing.md). */
export function QrCodeButton({
  sessionId,
  label = 'QR code',
  channel,
  ...buttonProps
}: { sessionId: string; label?: string; channel?: Channel } & Pick<ButtonProps, 'size' | 'aria-label'>) {
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  return (
    <>
      <Button
        ref={opener}
        variant="outline"
        {...buttonProps}
        aria-haspopup="dialog"
        // A pointer on the button starts the download, so the dialog is usually ready by the click.
        onPointerEnter={() => void loadQrCodeDialog()}
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
      >
        <QrIcon />
        {label}
      </Button>
      {wanted && (
        <Suspense fallback={null}>
          <QrCodeDialog sessionId={sessionId} channel={channel} open={open} onOpenChange={setOpen} returnFocusTo={opener} />
        </Suspense>
      )}
    </>
  );
}
