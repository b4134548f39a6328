import { Button, Group, Stack, Text } from "@mantine/core";
import { useCallback, useEffect, useRef, useState } from "react";
import type { QrCameraControls } from "./qr-camera.client";

/** How long after a refused code the camera reads again (the spec's scan retry delay). */
export const CAMERA_RESTART_MS = 2000;

type CameraState = "off" | "starting" | "on" | "error";

/**
 * Staff's camera scanner (the event's door, the food counter): `onCode` hears each code read, then
 * the camera rests until `resume` (at once when a result is closed, or CAMERA_RESTART_MS after a
 * refused code), and starts again only if staff have not stopped it meanwhile.
 */
export function useQrCamera(onCode: (code: string) => void) {
  const [state, setState] = useState<CameraState>("off");
  const video = useRef<HTMLVideoElement>(null);
  const controls = useRef<QrCameraControls | null>(null);
  const wanted = useRef(false);
  const starting = useRef(false);
  const heard = useRef(onCode);
  useEffect(() => {
    heard.current = onCode;
  }, [onCode]);

  const start = useCallback(async () => {
    wanted.current = true;
    if (!video.current || controls.current || starting.current) return;
    starting.current = true;
    setState("starting");
    try {
      const { startQrCamera } = await import("./qr-camera.client");
      let read = false;
      const started = await startQrCamera(video.current, (code) => {
        read = true;
        controls.current = null;
        setState("off");
        heard.current(code);
      });
      // A code read before the camera answered has already stopped it; staff may have stopped it meanwhile.
      if (read) return;
      if (!wanted.current) {
        started.stop();
        setState("off");
        return;
      }
      controls.current = started;
      setState("on");
    } catch {
      controls.current = null;
      setState("error");
    } finally {
      starting.current = false;
    }
  }, []);

  const stop = useCallback(() => {
    wanted.current = false;
    controls.current?.stop();
    controls.current = null;
    setState("off");
  }, []);

  /** Starts the camera again after `delay` ms if staff still want it; answers a function that cancels. */
  const resume = useCallback(
    (delay = 0) => {
      const timer = window.setTimeout(() => {
        if (wanted.current && !controls.current) void start();
      }, delay);
      return () => window.clearTimeout(timer);
    },
    [start],
  );

  useEffect(
    () => () => {
      wanted.current = false;
      controls.current?.stop();
    },
    [],
  );

  return { state, video, start, stop, resume };
}

/** The camera's start and stop buttons, what went wrong, and its picture; nothing without JavaScript. */
export function QrCamera({
  camera,
  labels,
}: {
  camera: ReturnType<typeof useQrCamera>;
  labels: { start: string; stop: string; unavailable: string };
}) {
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  if (!enhanced) return null;
  return (
    <Stack gap="xs">
      <Group>
        {camera.state === "off" || camera.state === "error" ? (
          <Button variant="light" onClick={() => void camera.start()}>
            {labels.start}
          </Button>
        ) : (
          <Button variant="light" color="gray" onClick={camera.stop}>
            {labels.stop}
          </Button>
        )}
      </Group>
      {camera.state === "error" ? (
        <Text size="sm" c="red" role="alert">
          {labels.unavailable}
        </Text>
      ) : null}
      <video
        ref={camera.video}
        muted
        playsInline
        hidden={camera.state !== "on" && camera.state !== "starting"}
        style={{ width: "100%", maxWidth: 420, borderRadius: 8 }}
      />
    </Stack>
  );
}
