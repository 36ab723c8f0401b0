import { Button, Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, SpinnerIcon } from '@logovote/ui';
import type { Channel } from '@logovote/contracts';
import { channelVotingUrl } from '@logovote/web-client';
import { toDataURL } from 'qrcode';
import { useEffect, useState, type RefObject } from 'react';

/** Pixels of the PNG (a print-friendly size); the dialog shows it smaller. */
const QR_PNG_SIDE = 512;

type Props = {
  sessionId: string;
  /** A channel's voting link instead of the poll's (docs/channels.md). */
  channel?: Channel | undefined;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The button that opened it, which gets the focus back on close (there is no Radix trigger to do it). */
  returnFocusTo: RefObject<HTMLButtonElement | null>;
};

/** The voting link's QR code with its text and a PNG download (loaded on demand, see QrCodeButton). */
export default function QrCodeDialog({ sessionId, channel, open, onOpenChange, returnFocusTo }: Props) {
  const pollVotingUrl = `${window.location.origin}/vote/${encodeURIComponent(sessionId)}`;
  const votingUrl = channel ? channelVotingUrl(pollVotingUrl, channel.id) : pollVotingUrl;
  const [png, setPng] = useState<{ url: string; dataUrl: string } | 'failed' | null>(null);

  useEffect(() => {
    let current = true;
    // Margin 4 is the quiet zone the QR standard asks for; level M survives a smudge or a crease.
    toDataURL(votingUrl, { width: QR_PNG_SIDE, margin: 4, errorCorrectionLevel: 'M' }).then(
      (dataUrl) => current && setPng({ url: votingUrl, dataUrl }),
      () => current && setPng('failed'),
    );
    return () => {
      current = false;
    };
  }, [votingUrl]);

  const ready = png !== null && png !== 'failed' && png.url === votingUrl ? png.dataUrl : null;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        data-testid="qr-code-dialog"
        className="max-w-sm"
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          returnFocusTo.current?.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>{channel ? `QR code for ${channel.name}` : 'QR code for the voting link'}</DialogTitle>
          <DialogDescription>Scan it with a phone camera to open the voting page.</DialogDescription>
        </DialogHeader>
        <div className="mx-auto flex aspect-square w-full max-w-64 items-center justify-center rounded-lg border border-border bg-white">
          {ready ? (
            <img src={ready} alt={`QR code that opens ${votingUrl}`} width={256} height={256} className="size-full" />
          ) : png === 'failed' ? (
            <p role="alert" className="p-4 text-center text-sm text-destructive">
              The QR code could not be made.
            </p>
          ) : (
            <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
              <SpinnerIcon className="size-4" />
              Making the QR code...
            </p>
          )}
        </div>
        <p data-testid="qr-code-link" className="text-center font-mono text-sm break-all">
          {votingUrl}
        </p>
        <DialogFooter>
          {ready ? (
            <Button asChild>
              <a href={ready} download={`logovote-poll-${sessionId}${channel ? `-${channel.id}` : ''}-qr.png`}>
                Download PNG
              </a>
            </Button>
          ) : (
            <Button disabled>Download PNG</Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
