let sound: HTMLAudioElement | undefined;

/** Two short tones, made here as a WAV file: no file to fetch, nothing to cache. */
function chime(): string {
  const rate = 22_050;
  const tones = [
    [880, 0.12],
    [1320, 0.18],
  ] as const;
  const samples: number[] = [];
  for (const [frequency, seconds] of tones) {
    const count = Math.floor(rate * seconds);
    for (let i = 0; i < count; i++) {
      const fade = Math.min(1, i / 200, (count - i) / 600);
      samples.push(Math.round(Math.sin((2 * Math.PI * frequency * i) / rate) * 0.4 * fade * 32767));
    }
  }
  const buffer = new DataView(new ArrayBuffer(44 + samples.length * 2));
  const text = (offset: number, value: string) =>
    [...value].forEach((char, i) => buffer.setUint8(offset + i, char.charCodeAt(0)));
  text(0, "RIFF");
  buffer.setUint32(4, 36 + samples.length * 2, true);
  text(8, "WAVEfmt ");
  buffer.setUint32(16, 16, true);
  buffer.setUint16(20, 1, true);
  buffer.setUint16(22, 1, true);
  buffer.setUint32(24, rate, true);
  buffer.setUint32(28, rate * 2, true);
  buffer.setUint16(32, 2, true);
  buffer.setUint16(34, 16, true);
  text(36, "data");
  buffer.setUint32(40, samples.length * 2, true);
  samples.forEach((sample, i) => buffer.setInt16(44 + i * 2, sample, true));
  let binary = "";
  new Uint8Array(buffer.buffer).forEach((byte) => (binary += String.fromCharCode(byte)));
  return `data:audio/wav;base64,${btoa(binary)}`;
}

/**
 * 'Order created' is heard: the message reaches only the users who asked for order notifications
 * (their account page). A browser that has not let the page play sound yet (no click since it
 * loaded) stays silent; the notice is shown all the same.
 */
export function playOrderSound() {
  sound ??= new Audio(chime());
  sound.currentTime = 0;
  void sound.play().catch(() => {});
}
