import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { inboxSubjectMapping } from "@troupe/protocol";
import { hostSettingsSchema } from "@troupe/runtime";
import { ConfigMap } from "kubernetes-models/v1/ConfigMap";
import { Service } from "kubernetes-models/v1/Service";
import { ServiceAccount } from "kubernetes-models/v1/ServiceAccount";
import { Deployment, type IDeployment } from "kubernetes-models/apps/v1/Deployment";
import {
  PodDisruptionBudget,
  type IPodDisruptionBudget,
} from "kubernetes-models/policy/v1/PodDisruptionBudget";
import type { IContainer } from "kubernetes-models/v1/Container";
import type { IService } from "kubernetes-models/v1/Service";
import { parseDocument } from "yaml";
import { describe, expect, it } from "vitest";
import { buildKustomization, readYamlDocuments, type KubernetesObject } from "./kustomize-build.js";

/**
 * The Kubernetes manifests of infra/kubernetes (issue #17): every object is
 * valid against the Kubernetes API schema (`kubernetes-models`' `validate()`,
 * offline), and the invariants a deployment depends on hold — the grace period
 * outlasts preStop plus the host's drain, the probes read the health endpoint
 * the host serves, the PodDisruptionBudget and Services select the pods they
 * are for, every container has requests and a memory limit, and the Helm
 * values agree with the hosts' settings.
 *
 * The host pods carry Prometheus scrape annotations for their health port's
 * `/metrics`, and `monitoring/` holds an optional prometheus-operator
 * PodMonitor for them (issue #18).
 *
 * The kustomizations are built by `buildKustomization` (resources, namespace,
 * images, replicas); where `kubectl` is installed, its own `kubectl kustomize`
 * must give the same objects.
 */
const kubernetesFolder = fileURLToPath(new URL("../../../infra/kubernetes/", import.meta.url));
const kustomizations = ["base", "gateway", "overlays/example"] as const;

/** The model class validating each kind our manifests use. */
const models: Record<string, new (data: never) => { validate(): void }> = {
  "v1/ConfigMap": ConfigMap,
  "v1/Service": Service,
  "v1/ServiceAccount": ServiceAccount,
  "apps/v1/Deployment": Deployment,
  "policy/v1/PodDisruptionBudget": PodDisruptionBudget,
};

const find = <T>(objects: readonly KubernetesObject[], kind: string, name: string): T => {
  const found = objects.find((object) => object.kind === kind && object.metadata.name === name);
  if (found === undefined) throw new Error(`no ${kind} ${name}`);
  return found as unknown as T;
};

const hostContainer = (deployment: IDeployment): IContainer => {
  const container = deployment.spec?.template.spec?.containers[0];
  if (container === undefined) throw new Error("no container");
  return container;
};

const kubectlAvailable = await promisify(execFile)("kubectl", ["version", "--client"])
  .then(() => true)
  .catch(() => false);

describe("Kubernetes manifests in infra/kubernetes", () => {
  it.each(kustomizations)(
    "%s: every object is valid against the Kubernetes schema",
    async (folder) => {
      const objects = await buildKustomization(`${kubernetesFolder}${folder}`);
      expect(objects.length).toBeGreaterThan(0);
      for (const object of objects) {
        const Model = models[`${object.apiVersion}/${object.kind}`];
        expect(Model, `a model for ${object.apiVersion} ${object.kind}`).toBeDefined();
        expect(
          () => new Model!(object as never).validate(),
          `${object.kind} ${object.metadata.name}`,
        ).not.toThrow();
      }
      if (kubectlAvailable) {
        // The builder must agree with kustomize itself wherever it is installed.
        const { stdout } = await promisify(execFile)("kubectl", [
          "kustomize",
          `${kubernetesFolder}${folder}`,
        ]);
        const byName = (list: readonly KubernetesObject[]) =>
          [...list].sort((a, b) =>
            `${a.kind}/${a.metadata.name}`.localeCompare(`${b.kind}/${b.metadata.name}`),
          );
        const built = stdout
          .split(/^---$/m)
          .map((document) => parseDocument(document).toJS() as KubernetesObject | null)
          .filter((object): object is KubernetesObject => object !== null);
        expect(byName(built)).toEqual(byName(objects));
      }
    },
  );

  it("a schema violation is caught (the validation is not a no-op)", () => {
    const broken = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "x" },
      spec: { replicas: "three" },
    };
    expect(() => new Deployment(broken as never).validate()).toThrow(/replicas/);
  });

  it("the host Deployment drains within its grace period and probes the host's health endpoint", async () => {
    const objects = await buildKustomization(`${kubernetesFolder}overlays/example`);
    const deployment = find<IDeployment>(objects, "Deployment", "troupe-host");
    const config = find<{ data: Record<string, string> }>(
      objects,
      "ConfigMap",
      "troupe-host-config",
    ).data;
    const container = hostContainer(deployment);
    const pod = deployment.spec!.template.spec!;

    expect(
      container.envFrom?.map((source) => source.configMapRef?.name ?? source.secretRef?.name),
    ).toEqual(["troupe-host-config", "troupe-credentials"]);
    // Grace period > preStop + the host's drain timeout + 5 s for the lease release and closing.
    const preStopSeconds = Number(container.lifecycle?.preStop?.exec?.command?.at(-1));
    const drainTimeoutMs = Number(
      config["TROUPE_DRAIN_TIMEOUT_MS"] ?? hostSettingsSchema.parse({}).drainTimeoutMs,
    );
    expect(container.lifecycle?.preStop?.exec?.command?.[0]).toBe("sleep");
    expect(preStopSeconds).toBeGreaterThan(0);
    expect(drainTimeoutMs).toBe(10_000);
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(
      preStopSeconds + drainTimeoutMs / 1000 + 5,
    );

    // Probes: the named port is the one the host listens on, on every address.
    const healthPort = container.ports?.find((port) => port.name === "health")?.containerPort;
    expect(healthPort).toBe(Number(config["TROUPE_HEALTH_PORT"]));
    expect(config["TROUPE_HEALTH_HOST"]).toBe("0.0.0.0");
    expect(container.readinessProbe?.httpGet).toMatchObject({ path: "/readyz", port: "health" });
    expect(container.livenessProbe?.httpGet).toMatchObject({ path: "/healthz", port: "health" });
    expect(container.startupProbe?.httpGet).toMatchObject({ path: "/healthz", port: "health" });
    expect(container.command).toEqual(["node", "node_modules/@troupe/cli/bin/troupe.mjs", "host"]);
    expect(deployment.spec?.strategy?.rollingUpdate?.maxUnavailable).toBe(0);
    expect(deployment.spec?.replicas).toBe(5);
    expect(deployment.metadata?.namespace).toBe("troupe");
    expect(container.image).toBe("registry.example.com/my-team/troupe-agents:2026.12.1");
  });

  it("the PodDisruptionBudget and the Services select the pods they are for", async () => {
    const objects = await buildKustomization(`${kubernetesFolder}overlays/example`);
    const host = find<IDeployment>(objects, "Deployment", "troupe-host");
    const pdb = find<IPodDisruptionBudget>(objects, "PodDisruptionBudget", "troupe-host");
    const templateLabels = host.spec!.template.metadata!.labels!;

    expect(pdb.spec?.selector?.matchLabels).toEqual(host.spec!.selector.matchLabels);
    expect(templateLabels).toMatchObject(pdb.spec!.selector!.matchLabels!);
    expect(Number(pdb.spec?.maxUnavailable)).toBeLessThan(host.spec!.replicas!);

    for (const service of objects.filter(
      (object) => object.kind === "Service",
    ) as unknown as IService[]) {
      const selector = service.spec!.selector!;
      const targets = objects.filter(
        (object) =>
          object.kind === "Deployment" &&
          Object.entries(selector).every(
            ([key, value]) =>
              (object as unknown as IDeployment).spec?.template.metadata?.labels?.[key] === value,
          ),
      ) as unknown as IDeployment[];
      expect(targets.map((target) => target.metadata?.name)).toEqual(["troupe-gateway"]);
      const portNames = targets.flatMap(
        (target) => hostContainer(target).ports?.map((port) => port.name) ?? [],
      );
      for (const port of service.spec!.ports!) expect(portNames).toContain(port.targetPort);
    }
  });

  it("every container asks for CPU and memory, and Node's heap fits its memory limit", async () => {
    const objects = await buildKustomization(`${kubernetesFolder}overlays/example`);
    const deployments = objects.filter(
      (object) => object.kind === "Deployment",
    ) as unknown as IDeployment[];
    expect(deployments.map((deployment) => deployment.metadata?.name)).toEqual([
      "troupe-host",
      "troupe-gateway",
    ]);
    for (const deployment of deployments) {
      for (const container of deployment.spec!.template.spec!.containers) {
        const requests = container.resources?.requests ?? {};
        expect(Object.keys(requests).sort(), `${container.name} requests`).toEqual([
          "cpu",
          "memory",
        ]);
        expect(
          container.resources?.limits?.["memory"],
          `${container.name} memory limit`,
        ).toBeDefined();
      }
    }
    const config = find<{ data: Record<string, string> }>(
      objects,
      "ConfigMap",
      "troupe-host-config",
    ).data;
    const heapMib = Number(/--max-old-space-size=(\d+)/.exec(config["NODE_OPTIONS"] ?? "")?.[1]);
    const limit = String(
      hostContainer(find<IDeployment>(objects, "Deployment", "troupe-host")).resources?.limits?.[
        "memory"
      ],
    );
    expect(limit).toBe("1Gi");
    expect(heapMib).toBeLessThan(1024 * 0.8);
  });

  it("the host pods are annotated for Prometheus on the port that serves /metrics (issue #18)", async () => {
    const objects = await buildKustomization(`${kubernetesFolder}overlays/example`);
    const deployment = find<IDeployment>(objects, "Deployment", "troupe-host");
    const config = find<{ data: Record<string, string> }>(
      objects,
      "ConfigMap",
      "troupe-host-config",
    ).data;
    const healthPort = hostContainer(deployment).ports?.find(
      (port) => port.name === "health",
    )?.containerPort;
    expect(deployment.spec?.template.metadata?.annotations).toEqual({
      "prometheus.io/scrape": "true",
      "prometheus.io/port": String(healthPort),
      "prometheus.io/path": "/metrics",
    });
    expect(String(healthPort)).toBe(config["TROUPE_HEALTH_PORT"]);
  });

  it("the optional PodMonitor selects the host pods and scrapes their health port's /metrics", async () => {
    const objects = await buildKustomization(`${kubernetesFolder}monitoring`);
    expect(objects.map((object) => `${object.apiVersion} ${object.kind}`)).toEqual([
      "monitoring.coreos.com/v1 PodMonitor",
    ]);
    const monitor = objects[0] as unknown as {
      metadata: { name: string };
      spec: {
        selector: { matchLabels: Record<string, string> };
        podMetricsEndpoints: { port: string; path: string; interval: string }[];
      };
    };
    // The alert rules select job `troupe-host` or `<namespace>/troupe-host`, the PodMonitor's default.
    expect(monitor.metadata.name).toBe("troupe-host");
    const host = find<IDeployment>(
      await buildKustomization(`${kubernetesFolder}base`),
      "Deployment",
      "troupe-host",
    );
    expect(host.spec!.template.metadata!.labels).toMatchObject(monitor.spec.selector.matchLabels);
    expect(monitor.spec.selector.matchLabels).toEqual(host.spec!.selector.matchLabels);
    const portNames = hostContainer(host).ports?.map((port) => port.name);
    expect(monitor.spec.podMetricsEndpoints).toEqual([
      { port: "health", path: "/metrics", interval: "15s" },
    ]);
    expect(portNames).toContain(monitor.spec.podMetricsEndpoints[0]!.port);
    if (kubectlAvailable) {
      const { stdout } = await promisify(execFile)("kubectl", [
        "kustomize",
        `${kubernetesFolder}monitoring`,
      ]);
      expect(parseDocument(stdout).toJS()).toEqual(monitor);
    }
  });

  it("the NATS and Redis chart values match the hosts' settings", async () => {
    const objects = await buildKustomization(`${kubernetesFolder}base`);
    const config = find<{ data: Record<string, string> }>(
      objects,
      "ConfigMap",
      "troupe-host-config",
    ).data;
    const [nats] = (await readYamlDocuments(`${kubernetesFolder}nats-values.yaml`)) as {
      config: {
        cluster: { enabled: boolean; replicas: number };
        jetstream: { enabled: boolean; fileStore: { enabled: boolean } };
        merge: { max_payload: string; mappings: Record<string, string> };
      };
    }[];
    const { source, destination } = inboxSubjectMapping(Number(config["TROUPE_SHARD_COUNT"]));
    expect(nats?.config.merge.mappings).toEqual({ [source]: destination });
    expect(nats?.config.merge.max_payload).toBe("<< 4MB >>");
    expect(nats?.config.cluster).toMatchObject({ enabled: true, replicas: 3 });
    expect(nats?.config.jetstream).toMatchObject({ enabled: true, fileStore: { enabled: true } });
    expect(config["TROUPE_NATS_URL"]?.split(",")).toEqual(
      [0, 1, 2].map((index) => `nats://nats-${index}.nats-headless:4222`),
    );

    const [redis] = (await readYamlDocuments(`${kubernetesFolder}redis-values.yaml`)) as {
      architecture: string;
      sentinel: { enabled: boolean; masterSet: string; quorum: number };
      replica: { replicaCount: number };
      commonConfiguration: string;
    }[];
    expect(redis?.architecture).toBe("replication");
    expect(redis?.sentinel).toMatchObject({
      enabled: true,
      masterSet: config["TROUPE_REDIS_SENTINEL_MASTER"],
      quorum: 2,
    });
    expect(config["TROUPE_REDIS_SENTINELS"]?.split(",")).toHaveLength(redis!.replica.replicaCount);
    expect(redis?.commonConfiguration.split("\n")).toEqual(
      expect.arrayContaining([
        "appendonly yes",
        "appendfsync everysec",
        "maxmemory-policy noeviction",
      ]),
    );
  });
});
