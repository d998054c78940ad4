// A JSON GET over node:http with a keep-alive agent, for engines spoken to over plain HTTP (Apertium APy).
// Measured on the bench (bench/README.md, the MT section): fetch (undici, WHATWG streams) cost about 2 ms more
// per request than node:http on the same keep-alive connection, which was the whole of Tessera's overhead
// over calling APy directly. An engine answers one text a request, so that cost is paid per segment.
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

const httpAgent = new HttpAgent({ keepAlive: true });
const httpsAgent = new HttpsAgent({ keepAlive: true });

export interface GetAnswer {
  status: number;
  retryAfter: string | null;
  body: string;
}

/** GETs a URL, aborted by `signal`; rejects on a network error or the abort. */
export function keepAliveGet(url: URL, signal: AbortSignal): Promise<GetAnswer> {
  const https = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const req = (https ? httpsRequest : httpRequest)(
      url,
      {
        method: 'GET',
        agent: https ? httpsAgent : httpAgent,
        signal,
        headers: { accept: 'application/json' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const retryAfter = res.headers['retry-after'];
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: typeof retryAfter === 'string' ? retryAfter : null,
            body: Buffer.concat(chunks).toString('utf8'),
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}
