import { readFile, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { parseAllDocuments } from "yaml";

/** A Kubernetes object as read from YAML. */
export interface KubernetesObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { name: string; namespace?: string; [key: string]: unknown };
  readonly [key: string]: unknown;
}

/** The kustomization fields {@link buildKustomization} understands. */
const supportedFields = new Set([
  "apiVersion",
  "kind",
  "namespace",
  "resources",
  "images",
  "replicas",
]);

interface Kustomization {
  readonly namespace?: string;
  readonly resources?: readonly string[];
  readonly images?: readonly { name: string; newName?: string; newTag?: string }[];
  readonly replicas?: readonly { name: string; count: number }[];
}

/**
 * Builds a kustomization the way `kustomize build` does for the few fields our
 * manifests use (issue #17): `resources` (YAML files, or folders holding a
 * `kustomization.yaml`, built recursively), `namespace` (set on every object),
 * `images` (`newName`/`newTag` for containers whose image name matches) and
 * `replicas` (by Deployment name). Used when no `kustomize`/`kubectl` is
 * installed, which is the case on the project's CI machines.
 *
 * @param folder - a folder holding `kustomization.yaml`.
 * @returns the objects, in resource order.
 * @throws Error naming the file for a field it does not implement (so a new
 *   kustomize feature in the manifests fails loudly here instead of being ignored).
 */
export async function buildKustomization(folder: string): Promise<KubernetesObject[]> {
  const file = join(folder, "kustomization.yaml");
  const documents = await readYamlDocuments(file);
  const kustomization = (documents[0] ?? {}) as Kustomization & Record<string, unknown>;
  const unsupported = Object.keys(kustomization).filter((key) => !supportedFields.has(key));
  if (unsupported.length > 0) {
    throw new Error(`${file}: buildKustomization does not implement ${unsupported.join(", ")}`);
  }
  let objects: KubernetesObject[] = [];
  for (const resource of kustomization.resources ?? []) {
    const path = resolve(folder, resource);
    objects = objects.concat(
      (await stat(path)).isDirectory()
        ? await buildKustomization(path)
        : ((await readYamlDocuments(path)) as KubernetesObject[]),
    );
  }
  return objects.map((object) => {
    let result: KubernetesObject = structuredClone(object);
    if (kustomization.namespace !== undefined) {
      result = { ...result, metadata: { ...result.metadata, namespace: kustomization.namespace } };
    }
    for (const { name, count } of kustomization.replicas ?? []) {
      if (result.kind === "Deployment" && result.metadata.name === name) {
        result = { ...result, spec: { ...(result["spec"] as object), replicas: count } };
      }
    }
    for (const image of kustomization.images ?? []) renameImage(result, image);
    return result;
  });
}

/** Reads every YAML document of a file (comments and empty documents dropped). */
export async function readYamlDocuments(file: string): Promise<unknown[]> {
  const documents = parseAllDocuments(await readFile(file, "utf8"));
  return documents
    .map((document) => {
      if (document.errors.length > 0) throw new Error(`${file}: ${document.errors[0]?.message}`);
      return document.toJS() as unknown;
    })
    .filter((value) => value !== null && value !== undefined);
}

function renameImage(
  object: KubernetesObject,
  image: { name: string; newName?: string; newTag?: string },
): void {
  const spec = (object["spec"] as { template?: { spec?: { containers?: { image: string }[] } } })
    ?.template?.spec;
  for (const container of spec?.containers ?? []) {
    const [name, tag] = splitImage(container.image);
    if (name !== image.name) continue;
    container.image = `${image.newName ?? name}${(image.newTag ?? tag) ? `:${image.newTag ?? tag}` : ""}`;
  }
}

function splitImage(image: string): [string, string | undefined] {
  const colon = image.lastIndexOf(":");
  return colon > image.lastIndexOf("/")
    ? [image.slice(0, colon), image.slice(colon + 1)]
    : [image, undefined];
}

/** The folder of a file URL, for tests that find the repository from `import.meta.url`. */
export function folderOf(url: string): string {
  return dirname(new URL(url).pathname);
}
