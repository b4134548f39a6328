// @zxing/browser, loaded only when staff start the camera on the check-in page (a lazy import from
// checkin-door.tsx): no other page carries the decoder.
import { BrowserQRCodeReader, type IScannerControls } from "@zxing/browser";

export type QrCamera = { stop(): void };

/** Reads QR codes from the back camera into `video`; `onCode` hears each code once, then the camera stops. */
export async function startQrCamera(video: HTMLVideoElement, onCode: (code: string) => void): Promise<QrCamera> {
  const reader = new BrowserQRCodeReader(undefined, { delayBetweenScanAttempts: 150 });
  let controls: IScannerControls | undefined;
  let done = false;
  controls = await reader.decodeFromConstraints({ video: { facingMode: "environment" } }, video, (result) => {
    if (!result || done) return;
    done = true;
    controls?.stop();
    onCode(result.getText());
  });
  if (done) controls.stop();
  return {
    stop() {
      done = true;
      controls?.stop();
    },
  };
}
