// @zxing/browser, loaded only when staff start the camera (a lazy import from qr-camera.tsx, on the
// check-in door and the food fulfilment page): no other page carries the decoder.
import { BrowserQRCodeReader, type IScannerControls } from "@zxing/browser";

export type QrCameraControls = { stop(): void };

/** Reads QR codes from the back camera into `video`; `onCode` hears each code once, then the camera stops. */
export async function startQrCamera(
  video: HTMLVideoElement,
  onCode: (code: string) => void,
): Promise<QrCameraControls> {
  const reader = new BrowserQRCodeReader(undefined, { delayBetweenScanAttempts: 150 });
  // The callback may run before decodeFromConstraints has answered its controls.
  const state: { controls?: IScannerControls; done: boolean } = { done: false };
  state.controls = await reader.decodeFromConstraints({ video: { facingMode: "environment" } }, video, (result) => {
    if (!result || state.done) return;
    state.done = true;
    state.controls?.stop();
    onCode(result.getText());
  });
  if (state.done) state.controls.stop();
  return {
    stop() {
      state.done = true;
      state.controls?.stop();
    },
  };
}
