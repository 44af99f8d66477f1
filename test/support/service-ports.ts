/** Ports and metrics of the service processes that tests and the bench start. */
import net from 'node:net';

/** A loopback port free at the moment of asking, for a process about to be started on it. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Outcomes (emitted, dropped, dead-lettered) a scorer process has produced, read from its /metrics. */
export async function scorerOutcomes(port: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return text.split('\n')
    .filter((line) => line.startsWith('skrya_messages_total{') && line.includes('service="scorer"'))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}
