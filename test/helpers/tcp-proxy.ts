// A loopback TCP proxy in front of a server (PostgreSQL in the fault tests): it can drop every connection
// it carries at once — a network cut, as the client sees it — and refuse new ones for a while (an outage).
import net from 'node:net';

export interface TcpProxy {
  /** The port it listens on (127.0.0.1). */
  port: number;
  /** Destroys every connection open through it; new ones go through again unless refusing. */
  dropAll(): void;
  /** While true, a new connection is closed as soon as it opens. */
  refusing: boolean;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // A reset on either side is the cut itself, not a failure of the proxy.
    socket.on('error', () => {});
  };
  const proxy: TcpProxy = {
    port: 0,
    refusing: false,
    dropAll() {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    },
    close: () =>
      new Promise((resolve) => {
        proxy.dropAll();
        server.close(() => resolve());
      }),
  };
  const server = net.createServer((client) => {
    track(client);
    if (proxy.refusing) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.port = (server.address() as net.AddressInfo).port;
  return proxy;
}
