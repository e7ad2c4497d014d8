/**
 * A TCP proxy the test controls, put between the service and its database, so an outage can be made
 * without touching the machine's shared server: `reset` drops every connection and refuses new ones
 * (a crashed or restarting database), `blackhole` lets packets vanish (a network partition: nothing
 * answers, nothing fails), `forward` heals.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export type ProxyMode = 'forward' | 'reset' | 'blackhole';

export interface TcpProxy {
  readonly port: number;
  setMode(mode: ProxyMode): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: ProxyMode = 'forward';
  const pairs = new Set<[Socket, Socket | undefined]>();

  const server: Server = createServer((client) => {
    client.on('error', () => {});
    if (mode === 'reset') {
      client.destroy();
      return;
    }
    if (mode === 'blackhole') {
      // Accepted, then silence: the client waits for an answer that never comes.
      const pair: [Socket, Socket | undefined] = [client, undefined];
      pairs.add(pair);
      client.on('close', () => pairs.delete(pair));
      return;
    }
    const upstream = connect(target.port, target.host);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    const pair: [Socket, Socket | undefined] = [client, upstream];
    pairs.add(pair);
    const forget = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', forget);
    upstream.on('close', forget);
    client.on('data', (chunk) => {
      if (mode === 'forward') upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (mode === 'forward') client.write(chunk);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as { port: number }).port;

  return {
    port,
    setMode(next) {
      const previous = mode;
      mode = next;
      // A reset drops what is open; healing drops what the black hole swallowed, as a real network
      // would once the peers notice, so the pool opens fresh connections.
      if (next === 'reset' || (next === 'forward' && previous === 'blackhole')) {
        for (const [client, upstream] of pairs) {
          client.destroy();
          upstream?.destroy();
        }
        pairs.clear();
      }
    },
    async close() {
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream?.destroy();
      }
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
