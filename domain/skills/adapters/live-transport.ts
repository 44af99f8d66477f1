import type { GuardedFetcher } from '../net/guarded-fetch.ts';
import type { AdapterRequest } from '../types.ts';
import type { createHttpApiTransport } from './http-api-transport.ts';
import type { createLocalFilesTransport } from './local-files-transport.ts';
import type { CallContext, Transport, TransportResponse } from './transport.ts';

export interface LiveTransportParts {
  api: ReturnType<typeof createHttpApiTransport>;
  publicWeb: GuardedFetcher;
  local: ReturnType<typeof createLocalFilesTransport>;
}

/** Real IO: each kind of request goes to the transport built for it. */
export function createLiveTransport(parts: LiveTransportParts): Transport {
  return {
    send(request: AdapterRequest, call: CallContext, signal: AbortSignal): Promise<TransportResponse> {
      switch (request.kind) {
        case 'api':
          return parts.api.send(request, call, signal);
        case 'public-url':
          return parts.publicWeb.fetch(request.url, { accept: request.accept, runId: call.runId, signal });
        case 'local-file':
        case 'local-notes':
          return parts.local.send(request, call);
      }
    },
  };
}
