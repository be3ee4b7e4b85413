/**
 * The local Apps Script host's clock, shared by the main thread and every execution worker, and the
 * two virtual-time headers by which the host and the Engage emulator agree on time. Real mode reads
 * Date.now(); virtual mode keeps milliseconds in a SharedArrayBuffer so that Utilities.sleep in any
 * worker, the host's advanceTime, cache expiry, trigger schedules and execution-time limits all see
 * one time.
 *
 * On a virtual clock a fetch would take no time at all. A server that models the network can say
 * otherwise: the host sends every request with its virtual send time (VIRTUAL_SEND_TIME_HEADER), and
 * a server that answers with VIRTUAL_ANSWER_TIME_HEADER (the virtual time its answer reaches the
 * client) moves the clock up to that time. The script sees neither header.
 */

/** Request header: the host's virtual time when the request was sent, in epoch ms. */
export const VIRTUAL_SEND_TIME_HEADER = 'x-virtual-send-time';
/** Response header: the virtual time, in epoch ms, at which the answer reaches the client. */
export const VIRTUAL_ANSWER_TIME_HEADER = 'x-virtual-answer-time';

export interface ClockDescriptor {
  virtual: boolean;
  /** Real time moved forward by an offset (the playground's clock): `buffer` holds the offset in ms. */
  shifted?: boolean;
  /** Present in virtual mode: one BigInt64 holding the current time in epoch ms; in shifted mode, the offset. */
  buffer?: SharedArrayBuffer;
}

export interface HostClock {
  readonly virtual: boolean;
  /**
   * Shifted mode: time runs as the wall clock does, from an offset that `advance` moves forward (the
   * playground's "Advance 1 hour"); sleeps take real time. Scripts read it through their Date.
   */
  readonly shifted?: boolean;
  now(): number;
  /** Virtual mode: moves time forward. Real mode: not allowed (time moves by itself). */
  advance(ms: number): void;
  /** Virtual mode: moves time forward to `epochMs` unless it is already there or later. */
  advanceTo(epochMs: number): void;
  /** Blocks the calling thread in real mode; advances the clock in virtual mode. */
  sleep(ms: number): void;
  descriptor(): ClockDescriptor;
}

const sleepCell = new Int32Array(new SharedArrayBuffer(4));

/** Blocks the calling thread for `ms` real milliseconds (Atomics.wait works on Node's main thread too). */
export function blockRealMs(ms: number): void {
  if (ms > 0) Atomics.wait(sleepCell, 0, 0, ms);
}

export function createClock(options: { virtual?: boolean; shifted?: boolean; start?: number | Date } = {}): HostClock {
  if (options.shifted) return clockFromDescriptor({ virtual: false, shifted: true, buffer: new SharedArrayBuffer(8) });
  if (!options.virtual) return clockFromDescriptor({ virtual: false });
  const buffer = new SharedArrayBuffer(8);
  const start = options.start === undefined ? Date.now() : typeof options.start === 'number' ? options.start : options.start.getTime();
  new BigInt64Array(buffer)[0] = BigInt(Math.floor(start));
  return clockFromDescriptor({ virtual: true, buffer });
}

/** Wall time plus an offset kept in the descriptor's buffer, shared with every worker. */
function shiftedClock(descriptor: ClockDescriptor): HostClock {
  const offset = new BigInt64Array(descriptor.buffer!);
  const now = () => Date.now() + Number(Atomics.load(offset, 0));
  const advance = (ms: number) => {
    if (ms > 0) Atomics.add(offset, 0, BigInt(Math.round(ms)));
  };
  return {
    virtual: false,
    shifted: true,
    now,
    advance,
    advanceTo: (epochMs: number) => advance(epochMs - now()),
    sleep: blockRealMs,
    descriptor: () => descriptor,
  };
}

export function clockFromDescriptor(descriptor: ClockDescriptor): HostClock {
  if (descriptor.shifted) return shiftedClock(descriptor);
  if (!descriptor.virtual) {
    return {
      virtual: false,
      now: () => Date.now(),
      advance: () => {
        throw new Error('advance() needs a virtual clock: createGasHost({ clock: "virtual" })');
      },
      advanceTo: () => {
        throw new Error('advanceTo() needs a virtual clock: createGasHost({ clock: "virtual" })');
      },
      sleep: blockRealMs,
      descriptor: () => descriptor,
    };
  }
  const cell = new BigInt64Array(descriptor.buffer!);
  const advance = (ms: number) => {
    if (ms > 0) Atomics.add(cell, 0, BigInt(Math.round(ms)));
  };
  const advanceTo = (epochMs: number) => {
    const target = BigInt(Math.round(epochMs));
    // Another thread may move the clock meanwhile: retry until ours is the value replaced, or time is past the target.
    for (let seen = Atomics.load(cell, 0); seen < target; ) {
      const previous = Atomics.compareExchange(cell, 0, seen, target);
      if (previous === seen) return;
      seen = previous;
    }
  };
  return {
    virtual: true,
    now: () => Number(Atomics.load(cell, 0)),
    advance,
    advanceTo,
    sleep: advance,
    descriptor: () => descriptor,
  };
}

/** The clock, telling `hook` of every forward move of virtual time made through this object. */
export function withAdvanceHook(clock: HostClock, hook: ((ms: number) => void) | undefined): HostClock {
  if (!hook || !(clock.virtual || clock.shifted)) return clock;
  const tell = (before: number) => {
    const moved = clock.now() - before;
    if (moved > 0) hook(moved);
  };
  const advance = (ms: number) => {
    const before = clock.now();
    clock.advance(ms);
    tell(before);
  };
  const advanceTo = (epochMs: number) => {
    const before = clock.now();
    clock.advanceTo(epochMs);
    tell(before);
  };
  if (clock.shifted) {
    // Its sleeps take real time and move no offset; each move is heard as the offset it added (wall time runs on meanwhile).
    const shift = (ms: number) => {
      if (ms <= 0) return;
      clock.advance(ms);
      hook(ms);
    };
    return {
      virtual: false,
      shifted: true,
      now: () => clock.now(),
      advance: shift,
      advanceTo: (epochMs: number) => shift(epochMs - clock.now()),
      sleep: clock.sleep,
      descriptor: () => clock.descriptor(),
    };
  }
  return { virtual: true, now: () => clock.now(), advance, advanceTo, sleep: advance, descriptor: () => clock.descriptor() };
}
