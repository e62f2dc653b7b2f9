import { SESSION_COOKIE } from '@haven/contracts/routes';
import { authService } from '@haven/auth/service';
import { internalHeaders, startTestService } from '@haven/kit/testing';
import { startTestGateway } from '@haven/gateway/testing';
import { load, printTable } from './lib';

/** A trivial authenticated GET through the gateway versus the same call straight to the service. */
export async function benchGateway(): Promise<void> {
  const auth = await startTestService(authService, { LOG_LEVEL: 'warn' });
  const gateway = await startTestGateway(auth.config, { auth: auth.url }, auth.url);
  try {
    const { token } = await auth.deps.sessions.create(1);
    const path = '/api/user-preferences';
    // Warm both paths (JIT, connection pools, the preferences row).
    await load('warm-up', gateway.url + path, {
      headers: { cookie: `${SESSION_COOKIE}=${token}` },
      seconds: 2,
    });
    const direct = await load('direct to auth service', auth.url + path, {
      headers: internalHeaders(auth.config, 1),
    });
    const viaGateway = await load('through the gateway', gateway.url + path, {
      headers: { cookie: `${SESSION_COOKIE}=${token}` },
    });
    printTable(`GET ${path} (16 connections, 8 s each)`, [direct, viaGateway]);
    console.log(
      `  gateway overhead: throughput ×${(viaGateway.requestsPerSecond / direct.requestsPerSecond).toFixed(2)}, ` +
        `p50 +${(viaGateway.p50 - direct.p50).toFixed(1)} ms, p99 +${(viaGateway.p99 - direct.p99).toFixed(1)} ms`,
    );
  } finally {
    await gateway.close();
    await auth.stop();
  }
}
