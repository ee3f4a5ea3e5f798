/**
 * Child-process entry of the demo conversation test: an actor host serving the
 * `demo` agent of `@troupe/cli` (its scripted model unless `TROUPE_MODEL`
 * names another). Configured like fixtures/tools-host.ts; prints
 * `{"ready":true,"hostId":…}` once started.
 */
import { agentKinds } from "@troupe/agents";
import { demoAgents, runHost, formatReadyLine } from "@troupe/host";
import { stderrRedisLogger } from "@troupe/host/internal";
import { Redis } from "ioredis";
import { redisRetryDelayMs, watchRedisConnection } from "@troupe/runtime";

const natsUrl = process.env.TROUPE_NATS_URL;
const redisUrl = process.env.TROUPE_REDIS_URL;
if (natsUrl === undefined || redisUrl === undefined) {
  process.stderr.write("demo-host: TROUPE_NATS_URL and TROUPE_REDIS_URL are required\n");
  process.exit(2);
}
const settings = JSON.parse(process.env.TROUPE_HOST_SETTINGS ?? "{}") as Record<string, unknown>;
const toolRedis = new Redis(redisUrl, { retryStrategy: redisRetryDelayMs });
watchRedisConnection(toolRedis, stderrRedisLogger("tools-host"), "tools");
const host = await runHost({
  nats: natsUrl,
  redis: redisUrl,
  kinds: agentKinds({ agents: demoAgents({ redis: toolRedis }) }),
  settings,
  onStopped: () => toolRedis.quit().then(() => undefined),
});
process.stdout.write(formatReadyLine({ hostId: host.hostId, agents: [] }));
