/**
 * Entry of an execution worker thread: it holds its own compiled copy of the bundle and runs the
 * executions the host sends it (each in a fresh vm context, as in the main thread). Every host
 * operation is a synchronous RPC to the main thread, which owns the shared state: the worker posts
 * the `OpRequest` and sleeps on Atomics until the main thread has posted the answer on a dedicated
 * port. Because the worker really blocks, a lock held by another execution really keeps it waiting.
 */
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import vm from 'node:vm';
import { clockFromDescriptor, type ClockDescriptor } from '../../shared/clock';
import { hostOpsClient, type OpRequest } from '../protocol/protocol';
import type { ExecutionOutcome, ExecutionRequest, RuntimeSettings } from '../protocol/execution';
import { runExecution } from './runtime';

export interface ExecutionWorkerData {
  code: string;
  clock: ClockDescriptor;
  settings: RuntimeSettings;
  signal: SharedArrayBuffer;
  replyPort: MessagePort;
}

/** Host to worker. */
export type HostMessage = { type: 'run'; request: ExecutionRequest };
/** Worker to host: an operation to serve, or an execution's end. */
export type WorkerMessage =
  | { type: 'rpc'; executionId: number; seq: number; request: OpRequest }
  | { type: 'done'; executionId: number; outcome: ExecutionOutcome };
/** The answer to an operation, on the reply port, with the number of the operation it answers. */
export type WorkerReply = { seq: number } & ({ result: unknown } | { error: { name: string; message: string } });

const data = workerData as ExecutionWorkerData;
const signal = new Int32Array(data.signal);
const clock = clockFromDescriptor(data.clock);
const script = new vm.Script(data.code, { filename: 'Code.js' });
const post = (message: WorkerMessage) => parentPort!.postMessage(message);

/** The last operation's number: each answer names the operation it answers. */
let lastSeq = 0;

/**
 * Sends one operation and waits for its answer. An answer to an earlier operation may still arrive:
 * one whose execution was stopped while it waited (out of time), served after the stop. It is dropped,
 * not taken for this operation's.
 */
function rpc(executionId: number, request: OpRequest): unknown {
  const seq = ++lastSeq;
  Atomics.store(signal, 0, 0);
  post({ type: 'rpc', executionId, seq, request });
  for (;;) {
    const received = receiveMessageOnPort(data.replyPort);
    if (received) {
      const reply = received.message as WorkerReply;
      if (reply.seq !== seq) continue;
      if ('error' in reply) {
        const error = new Error(reply.error.message);
        error.name = reply.error.name;
        throw error;
      }
      return reply.result;
    }
    // The main thread posts the answer, then sets the signal; wait for the signal, then read again
    // (an earlier operation's late answer may have set it: clear it before reading).
    Atomics.wait(signal, 0, 0, 1000);
    Atomics.store(signal, 0, 0);
  }
}

parentPort!.on('message', (message: HostMessage) => {
  if (message.type !== 'run') return;
  const request = message.request;
  const ops = hostOpsClient((opRequest) => rpc(request.executionId, opRequest));
  let outcome: ExecutionOutcome;
  try {
    outcome = runExecution(script, clock, ops, data.settings, request);
  } catch (error) {
    outcome = { ok: false, logText: '', error: { name: 'Error', message: `gas-host worker failure: ${(error as Error).message}` } };
  }
  post({ type: 'done', executionId: request.executionId, outcome });
});
