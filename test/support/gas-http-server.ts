/**
 * A tiny HTTP server for gas-host tests, started in a child process because a synchronous fetch blocks
 * the test's thread (a server on that thread could never answer). Routes, all under any path:
 *   /status/<code>            answers that status with body "status <code>" (a long body with ?long=1)
 *   /slow/<ms>                answers 200 after <ms> milliseconds
 *   /echo                     answers 200 with JSON { method, url, headers, body }
 *   /redirect                 answers 302 to /echo
 *   /count                    answers the number of requests seen so far
 *   /utf8/<charset>           answers "café ü" as UTF-8 bytes, its Content-Type text/plain with that
 *                             charset, or none for /utf8/none
 *   /virtual/<ms>             answers 200 with the x-virtual-send-time it received, and says in
 *                             x-virtual-answer-time that the answer reaches the client <ms> later
 */
import { spawn, type ChildProcess } from 'node:child_process';

const SERVER_SOURCE = `
const http = require('node:http');
let seen = 0;
const server = http.createServer((req, res) => {
  seen++;
  let body = '';
  req.on('data', (c) => { body += c; });
  req.on('end', () => {
    const url = new URL(req.url, 'http://localhost');
    const parts = url.pathname.split('/').filter(Boolean);
    if (parts[0] === 'status') {
      const code = Number(parts[1]);
      const text = url.searchParams.get('long') ? 'x'.repeat(1000) : 'status ' + code;
      res.writeHead(code, { 'Content-Type': 'text/plain', 'X-Test-Header': 'yes' });
      res.end(text);
    } else if (parts[0] === 'slow') {
      setTimeout(() => { res.writeHead(200, { 'Content-Type': 'text/plain' }); res.end('slow ' + parts[1]); }, Number(parts[1]));
    } else if (parts[0] === 'redirect') {
      res.writeHead(302, { Location: '/echo' });
      res.end();
    } else if (parts[0] === 'virtual') {
      const sent = Number(req.headers['x-virtual-send-time']);
      res.writeHead(200, { 'Content-Type': 'text/plain', 'X-Virtual-Answer-Time': String(sent + Number(parts[1])) });
      res.end(String(req.headers['x-virtual-send-time']));
    } else if (parts[0] === 'utf8') {
      res.writeHead(200, { 'Content-Type': parts[1] === 'none' ? 'text/plain' : 'text/plain; charset=' + parts[1] });
      res.end(Buffer.from('café ü', 'utf8'));
    } else if (parts[0] === 'count') {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end(String(seen));
    } else {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Set-Cookie': ['a=1', 'b=2'] });
      res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body }));
    }
  });
});
server.listen(0, '127.0.0.1', () => { process.stdout.write('LISTENING ' + server.address().port + '\\n'); });
`;

export interface TestHttpServer {
  baseUrl: string;
  close(): Promise<void>;
}

export async function startTestHttpServer(): Promise<TestHttpServer> {
  const child: ChildProcess = spawn(process.execPath, ['-e', SERVER_SOURCE], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let buffered = '';
    child.once('exit', (code) => reject(new Error(`test server exited with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const match = /LISTENING (\d+)/.exec(buffered);
      if (match) resolve(Number(match[1]));
    });
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
