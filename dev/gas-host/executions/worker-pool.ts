/**
 * The execution workers behind `recalculate` and `callConcurrently`: up to `concurrency` threads, each
 * with its own compiled copy of the bundle (execution-worker.ts), started on demand and kept until
 * closed or the next `load`. A worker's host operations arrive here as messages and are served by the
 * host state on this thread, which may answer later (a lock another execution holds, an HTTP answer)
 * while the worker blocks on Atomics. Queued executions start their clock when a worker takes them.
 */
import path from 'node:path';
import { MessageChannel, Worker } from 'node:worker_threads';
import type { ExecutionWorkerData, HostMessage, WorkerMessage, WorkerReply } from './execution-worker';
import type { HostClock } from '../../shared/clock';
import type { ExecutionInfo, OpRequest } from '../protocol/protocol';
import type { ExecutionOutcome, ExecutionRequest, RuntimeSettings } from '../protocol/execution';
import { buildWorkerFile } from '../fetch/worker-build';

/** What the pool needs of the host state (host-state.ts): its clock, the executions running, and their operations served. */
export interface PoolHost {
  readonly clock: HostClock;
  readonly executions: Map<number, ExecutionInfo>;
  endExecution(executionId: number): void;
  serve(info: ExecutionInfo, request: OpRequest): unknown;
}

interface PooledWorker {
  worker: Worker;
  busy: boolean;
  replyPort: MessageChannel['port1'];
  signal: Int32Array;
}

export class ExecutionPool {
  private workers: PooledWorker[] = [];
  private code: string | undefined;
  private readonly queue: ExecutionRequest[] = [];
  private readonly pending = new Map<number, (outcome: ExecutionOutcome) => void>();
  private readonly assigned = new Map<number, PooledWorker>();

  constructor(
    private readonly state: PoolHost,
    private readonly settings: RuntimeSettings,
    private readonly concurrency: number,
  ) {}

  /** Workers compile `code` when they start; those running an older bundle are stopped. */
  load(code: string): void {
    this.code = code;
    void this.close();
  }

  /** Runs an execution the host state has begun, in the next free worker; the state ends it when done. */
  run(info: ExecutionInfo, request: ExecutionRequest): Promise<ExecutionOutcome> {
    return new Promise((resolve) => {
      this.pending.set(info.id, resolve);
      this.queue.push(request);
      this.dispatch();
    });
  }

  /** Stops the workers. */
  async close(): Promise<void> {
    const workers = this.workers;
    this.workers = [];
    await Promise.all(workers.map((w) => w.worker.terminate()));
  }

  private start(): PooledWorker {
    const file = buildWorkerFile(path.join(__dirname, 'execution-worker.ts'));
    const channel = new MessageChannel();
    const signalBuffer = new SharedArrayBuffer(4);
    const workerData: ExecutionWorkerData = {
      code: this.code!,
      clock: this.state.clock.descriptor(),
      settings: this.settings,
      signal: signalBuffer,
      replyPort: channel.port2,
    };
    const worker = new Worker(file, {
      workerData,
      transferList: [channel.port2],
      // The built worker is plain CommonJS: do not inherit a TypeScript loader (tsx) that would slow every start.
      execArgv: [],
    });
    const pooled: PooledWorker = { worker, busy: false, replyPort: channel.port1, signal: new Int32Array(signalBuffer) };
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'rpc') void this.serve(pooled, message.executionId, message.seq, message.request);
      else this.finish(pooled, message.executionId, message.outcome);
    });
    worker.on('error', (error) => {
      for (const [id, resolve] of this.pending) {
        if (this.assigned.get(id) === pooled) {
          this.pending.delete(id);
          this.state.endExecution(id);
          resolve({ ok: false, logText: '', error: { name: 'Error', message: `gas-host worker crashed: ${error.message}` } });
        }
      }
    });
    worker.unref();
    channel.port1.unref();
    this.workers.push(pooled);
    return pooled;
  }

  private finish(pooled: PooledWorker, executionId: number, outcome: ExecutionOutcome): void {
    const resolve = this.pending.get(executionId);
    this.pending.delete(executionId);
    this.assigned.delete(executionId);
    this.state.endExecution(executionId);
    pooled.busy = false;
    // An idle worker must not keep the process alive; a busy one must.
    pooled.worker.unref();
    resolve?.(outcome);
    this.dispatch();
  }

  private async serve(pooled: PooledWorker, executionId: number, seq: number, request: OpRequest): Promise<void> {
    const info = this.state.executions.get(executionId);
    let reply: WorkerReply;
    try {
      if (!info) throw new Error(`gas-host: unknown execution ${executionId}`);
      reply = { seq, result: await this.state.serve(info, request) };
    } catch (error) {
      const e = error as { name?: string; message?: string };
      reply = { seq, error: { name: e.name ?? 'Error', message: e.message ?? String(error) } };
    }
    pooled.replyPort.postMessage(reply);
    Atomics.store(pooled.signal, 0, 1);
    Atomics.notify(pooled.signal, 0);
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let idle = this.workers.find((w) => !w.busy);
      if (!idle && this.workers.length < this.concurrency) idle = this.start();
      if (!idle) return;
      const request = this.queue.shift()!;
      const info = this.state.executions.get(request.executionId);
      if (info) {
        // Queued time counts: Apps Script's clock starts when the execution starts, so restart it here.
        const limit = info.deadline - info.startedAt;
        info.startedAt = this.state.clock.now();
        info.deadline = info.startedAt + limit;
        request.startedAt = info.startedAt;
        request.deadline = info.deadline;
      }
      idle.busy = true;
      idle.worker.ref();
      this.assigned.set(request.executionId, idle);
      const message: HostMessage = { type: 'run', request };
      idle.worker.postMessage(message);
    }
  }
}
