/**
 * The real serde without a registry service: a schema registry kept in this process (what the
 * serde registers, it looks up by id) and a local HTTP stub for the compatibility call the serde
 * makes itself, for `bench/replay-ab.ts`, which loads two trees' replay paths in one process. Tests use the real registry.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import avro from 'avsc';
import type { SchemaRegistry } from '@kafkajs/confluent-schema-registry';

export function inProcessRegistry(): SchemaRegistry {
  const types = new Map<number, avro.Type>();
  return {
    async register({ schema }: { schema: string }) {
      const id = types.size + 1;
      types.set(id, avro.Type.forSchema(JSON.parse(schema) as avro.Schema));
      return { id };
    },
    async encode(id: number, payload: unknown) {
      const header = Buffer.alloc(5);
      header.writeUInt32BE(id, 1);
      return Buffer.concat([header, types.get(id)!.toBuffer(payload)]);
    },
    async getSchema(id: number) {
      return types.get(id)!;
    },
  } as unknown as SchemaRegistry;
}

/** Runs `work` with the URL of a stub that accepts every registry request the serde sends itself. */
export async function withRegistryStub<T>(work: (registryUrl: string) => Promise<T>): Promise<T> {
  const stub = http.createServer((_request, response) => response.end('{}')).listen(0, '127.0.0.1');
  await new Promise((resolve) => stub.once('listening', resolve));
  try {
    return await work(`http://127.0.0.1:${(stub.address() as AddressInfo).port}`);
  } finally {
    stub.close();
  }
}
