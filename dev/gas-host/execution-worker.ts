/**
 * Entry of an execution worker thread: it holds its own compiled copy of the bundle and runs the
 * executions the host sends it (each in a fresh vm context, as in the main thread). Every service call
 * is a synchronous RPC to the main thread, which owns the shared state: the worker posts the request
 * and sleeps on Atomics until the main thread has posted the answer on a dedicated port. Because the
 * worker really blocks, a lock held by another execution really keeps it waiting.
 */
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import vm from 'node:vm';
import { clockFromDescriptor, type ClockDescriptor } from './clock';
import { runExecution, type Backend, type ExecutionRequest, type RuntimeSettings } from './runtime';

interface ExecutionWorkerData {
  code: string;
  clock: ClockDescriptor;
  settings: RuntimeSettings;
  signal: SharedArrayBuffer;
  replyPort: MessagePort;
}

export type WorkerReply = { result: unknown } | { error: { name: string; message: string } };

const data = workerData as ExecutionWorkerData;
const signal = new Int32Array(data.signal);
const clock = clockFromDescriptor(data.clock);
const script = new vm.Script(data.code, { filename: 'Code.js' });

function rpc(executionId: number, op: string, args: unknown[]): unknown {
  Atomics.store(signal, 0, 0);
  parentPort!.postMessage({ type: 'rpc', executionId, op, args });
  for (;;) {
    const received = receiveMessageOnPort(data.replyPort);
    if (received) {
      const reply = received.message as WorkerReply;
      if ('error' in reply) {
        const error = new Error(reply.error.message);
        error.name = reply.error.name;
        throw error;
      }
      return reply.result;
    }
    // The main thread posts the answer, then sets the signal; wait for the signal, then read again.
    Atomics.wait(signal, 0, 0, 1000);
  }
}

parentPort!.on('message', (message: { type: 'run'; request: ExecutionRequest }) => {
  if (message.type !== 'run') return;
  const request = message.request;
  const backend: Backend = { call: (op, ...args) => rpc(request.executionId, op, args) };
  let outcome;
  try {
    outcome = runExecution(script, clock, backend, data.settings, request);
  } catch (error) {
    outcome = { ok: false, logText: '', error: { name: 'Error', message: `gas-host worker failure: ${(error as Error).message}` } };
  }
  parentPort!.postMessage({ type: 'done', executionId: request.executionId, outcome });
});
