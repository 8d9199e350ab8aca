import { ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';

/** A free TCP port on the loopback interface. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A private redis-server (the `redis-server` binary) on one loopback port, without persistence,
 * that a test can stop and start again on the same port to play an outage.
 */
export class PrivateRedis {
  private process: ChildProcess | undefined;

  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort());
    await redis.start();
    return redis;
  }

  get running(): boolean {
    return this.process !== undefined && this.process.exitCode === null;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts the server and resolves once it accepts connections. */
  async start(): Promise<void> {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.process = child;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const onData = (chunk: Buffer) => {
        output += String(chunk);
        if (output.includes('Ready to accept connections')) {
          child.stdout?.off('data', onData);
          child.stdout?.resume();
          resolve();
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.resume();
      child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
      child.once('error', reject);
    });
  }

  /** Kills the server at once (as a crash would) and resolves once it is gone. */
  async stop(): Promise<void> {
    const child = this.process;
    this.process = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}
